//===- output.c - Output files: complete or not at all -----------*- C -*-===//
//
// An output that is (or will be) a regular file is written to a temporary
// beside it and renamed over it only when complete, so that readers never
// see half a file and a failure leaves the old one. The temporary is created
// with O_EXCL, so that nothing planted at its name (a symbolic link to
// someone else's file) is ever opened, and with mode 0666 less the umask,
// like any new file. Through a symbolic link, the link's target is replaced
// and the link stays. Anything else (a character device such as /dev/null
// or /dev/stdout, a FIFO) cannot be replaced by a rename: it is written in
// place.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/// Tries at other random names when one is taken.
enum { MaxTempAttempts = 64 };

static char *copyString(const char *s) { return mlxrt_strndup(s, strlen(s)); }

/// The directory part of a path, "." for none ("a.npy" -> ".").
static char *dirName(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return copyString(".");
  if (slash == path)
    return copyString("/");
  return mlxrt_strndup(path, (size_t)(slash - path));
}

static uint64_t nextRandom(uint64_t *state) {
  // splitmix64: the names need only be hard to guess, O_EXCL does the rest.
  uint64_t z = (*state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/// Creates a new temporary file beside `target`: "TARGET.tmp.<pid>", then
/// random names if that is taken; a short hidden name in the same directory
/// when TARGET's name is too long for a suffix.
static mlxrt_status createTemp(mlxrt_output *o, mlxrt_error *err) {
  struct timespec now;
  clock_gettime(CLOCK_REALTIME, &now);
  uint64_t state = (uint64_t)now.tv_nsec ^ (uint64_t)now.tv_sec << 30 ^
                   (uint64_t)getpid() << 16 ^ (uint64_t)(uintptr_t)o;
  char *dir = dirName(o->target);
  size_t len = strlen(o->target) + 64;
  char *tmp = malloc(len);
  if (!dir || !tmp) {
    free(dir);
    free(tmp);
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  bool shortName = false;
  int fd = -1, error = EEXIST;
  for (int attempt = 0; attempt < MaxTempAttempts && fd < 0; ++attempt) {
    long pid = (long)getpid();
    if (shortName)
      snprintf(tmp, len, "%s/.mlxrt.%ld.%016llx.tmp", dir, pid,
               (unsigned long long)nextRandom(&state));
    else if (attempt == 0)
      snprintf(tmp, len, "%s.tmp.%ld", o->target, pid);
    else
      snprintf(tmp, len, "%s.tmp.%ld.%016llx", o->target, pid,
               (unsigned long long)nextRandom(&state));
    fd = open(tmp,
              O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC,
              0666);
    error = errno;
    if (fd < 0 && error == ENAMETOOLONG && !shortName)
      shortName = true;
    else if (fd < 0 && error != EEXIST)
      break;
  }
  mlxrt_status st = MLXRT_OK;
  if (fd < 0) {
    st = mlxrt_fail(err, MLXRT_ERROR_IO,
                    "cannot create a temporary file beside '%s': %s", o->target,
                    strerror(error));
  } else if (!(o->file = fdopen(fd, "wb"))) {
    st = mlxrt_fail(err, MLXRT_ERROR_IO, "cannot write '%s': %s", o->path,
                    strerror(errno));
    close(fd);
    unlink(tmp);
  }
  free(dir);
  if (st != MLXRT_OK) {
    free(tmp);
    return st;
  }
  o->tmp = tmp;
  return MLXRT_OK;
}

/// Opens a file that is not a regular one (a device, a FIFO) to write to it
/// directly. `follow`: the path is a symbolic link to it.
static mlxrt_status openDirect(mlxrt_output *o, bool follow, mlxrt_error *err) {
  int fd = open(o->path,
                O_WRONLY | O_NOCTTY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
  if (fd < 0)
    return mlxrt_fail(err, MLXRT_ERROR_IO, "cannot open '%s': %s", o->path,
                      strerror(errno));
  struct stat info;
  if (fstat(fd, &info) != 0 || S_ISREG(info.st_mode)) {
    // Replaced by a regular file since it was looked at: no writing in
    // place there.
    close(fd);
    return mlxrt_fail(err, MLXRT_ERROR_IO,
                      "cannot write '%s': it changed while being opened",
                      o->path);
  }
  if (!(o->file = fdopen(fd, "wb"))) {
    close(fd);
    return mlxrt_fail(err, MLXRT_ERROR_IO, "cannot write '%s': %s", o->path,
                      strerror(errno));
  }
  o->direct = true;
  return MLXRT_OK;
}

mlxrt_status mlxrt_output_open(mlxrt_output *o, const char *path,
                               mlxrt_error *err) {
  memset(o, 0, sizeof(*o));
  o->path = path;
  size_t len = strlen(path);
  if (len == 0)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT, "empty file name");
  struct stat info;
  if (path[len - 1] == '/')
    return mlxrt_fail(err, MLXRT_ERROR_IO, "cannot write '%s': %s", path,
                      stat(path, &info) == 0 && S_ISDIR(info.st_mode)
                          ? strerror(EISDIR)
                          : "a file name cannot end in '/'");
  if (lstat(path, &info) != 0) {
    if (errno != ENOENT)
      return mlxrt_fail(err, MLXRT_ERROR_IO, "cannot write '%s': %s", path,
                        strerror(errno));
    o->target = copyString(path); // A new file.
  } else {
    bool link = S_ISLNK(info.st_mode);
    if (link && stat(path, &info) != 0)
      return mlxrt_fail(err, MLXRT_ERROR_IO, "cannot write '%s': %s", path,
                        errno == ENOENT ? "a symbolic link to a file that "
                                          "does not exist"
                                        : strerror(errno));
    if (S_ISDIR(info.st_mode))
      return mlxrt_fail(err, MLXRT_ERROR_IO, "cannot write '%s': %s", path,
                        strerror(EISDIR));
    if (!S_ISREG(info.st_mode))
      return openDirect(o, link, err);
    // Through a link, its target is replaced, beside it; the link stays.
    o->target = link ? realpath(path, NULL) : copyString(path);
    if (!o->target && link)
      return mlxrt_fail(err, MLXRT_ERROR_IO, "cannot resolve '%s': %s", path,
                        strerror(errno));
  }
  if (!o->target)
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  mlxrt_status st = createTemp(o, err);
  if (st != MLXRT_OK) {
    free(o->target);
    o->target = NULL;
  }
  return st;
}

mlxrt_status mlxrt_output_close(mlxrt_output *o, mlxrt_error *err) {
  FILE *f = o->file;
  o->file = NULL;
  if (!f)
    return MLXRT_OK;
  errno = 0;
  bool failed = fflush(f) != 0;
  // A full disk may only show when the data reaches it: before the rename,
  // so that a file that did not fit never replaces the old one.
  if (!failed && o->tmp && fsync(fileno(f)) != 0 && errno != EINVAL)
    failed = true;
  int error = errno;
  if (fclose(f) != 0 && !failed) {
    failed = true;
    error = errno;
  }
  if (failed)
    return mlxrt_fail(err, MLXRT_ERROR_IO, "cannot write '%s': %s", o->path,
                      strerror(error ? error : EIO));
  return MLXRT_OK;
}

mlxrt_status mlxrt_output_commit(mlxrt_output *o, mlxrt_error *err) {
  if (!o->tmp)
    return MLXRT_OK;
  if (rename(o->tmp, o->target) != 0)
    return mlxrt_fail(err, MLXRT_ERROR_IO, "cannot rename '%s' to '%s': %s",
                      o->tmp, o->target, strerror(errno));
  free(o->tmp);
  o->tmp = NULL;
  return MLXRT_OK;
}

void mlxrt_output_discard(mlxrt_output *o) {
  if (o->file)
    fclose(o->file);
  if (o->tmp)
    unlink(o->tmp); // Only ever one this process created.
  free(o->tmp);
  free(o->target);
  o->file = NULL;
  o->tmp = o->target = NULL;
}

/// What a path names, to tell whether two paths name one file: the file's
/// device and inode when it exists, else its directory's real path and its
/// name there.
typedef struct {
  bool exists, charDevice;
  dev_t dev;
  ino_t ino;
  char *where; ///< Without `exists`: "REALDIR/NAME", or NULL if unknown.
} Identity;

static void identify(const char *path, Identity *id) {
  memset(id, 0, sizeof(*id));
  struct stat info;
  if (stat(path, &info) == 0) {
    id->exists = true;
    id->charDevice = S_ISCHR(info.st_mode);
    id->dev = info.st_dev;
    id->ino = info.st_ino;
    return;
  }
  char *dir = dirName(path);
  char *real = dir ? realpath(dir, NULL) : NULL;
  const char *slash = strrchr(path, '/');
  const char *name = slash ? slash + 1 : path;
  if (real && (id->where = malloc(strlen(real) + strlen(name) + 2)))
    sprintf(id->where, "%s/%s", real, name);
  free(real);
  free(dir);
}

int mlxrt_outputs_collide(const char *a, const char *b) {
  Identity x, y;
  identify(a, &x);
  identify(b, &y);
  int same;
  if (x.exists || y.exists)
    same = x.exists && y.exists && x.dev == y.dev && x.ino == y.ino &&
           !x.charDevice;
  else
    same =
        x.where && y.where ? strcmp(x.where, y.where) == 0 : strcmp(a, b) == 0;
  free(x.where);
  free(y.where);
  return same;
}
