//===- npy_files.c - .npy files written as one ------------------*- C -*-===//
//
// The outputs of a call saved together (mlxrt_api.h): each file through
// output.c, every temporary complete before any replaces an old file.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

#include <stdlib.h>
#include <string.h>

struct mlxrt_npy_files {
  size_t n;
  mlxrt_output outputs[]; ///< Zeroed beyond the ones opened.
};

mlxrt_status mlxrt_npy_files_open(const char *const *paths, size_t n,
                                  mlxrt_npy_files **out, size_t *failed,
                                  mlxrt_error *err) {
  *out = NULL;
  if (failed)
    *failed = 0;
  for (size_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < i; ++k) {
      if (!mlxrt_outputs_collide(paths[k], paths[i]))
        continue;
      if (failed)
        *failed = i;
      if (strcmp(paths[k], paths[i]) == 0)
        return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                          "output file '%s' given twice", paths[i]);
      return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                        "output files '%s' and '%s' are the same file",
                        paths[k], paths[i]);
    }
  }
  mlxrt_npy_files *files = calloc(1, sizeof(*files) + n * sizeof(mlxrt_output));
  if (!files)
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  files->n = n;
  for (size_t i = 0; i < n; ++i) {
    mlxrt_status st = mlxrt_output_open(&files->outputs[i], paths[i], err);
    if (st != MLXRT_OK) {
      if (failed)
        *failed = i;
      mlxrt_npy_files_close(files);
      return st;
    }
  }
  *out = files;
  return MLXRT_OK;
}

/// Writes arrays[k] into output k's open file and closes it.
static mlxrt_status writeNpy(mlxrt_output *o, mlxrt_array *array,
                             mlxrt_error *err) {
  mlxrt_tensor t = *mlxrt_array_type(array);
  mlxrt_status st = mlxrt_array_map(array, MLXRT_ACCESS_READ, &t.data, err);
  if (st == MLXRT_OK)
    st = mlxrt_npy_write(o->file, o->path, &t, err);
  mlxrt_status closed = mlxrt_output_close(o, st == MLXRT_OK ? err : NULL);
  return st == MLXRT_OK ? closed : st;
}

mlxrt_status mlxrt_npy_files_save(mlxrt_npy_files *files,
                                  mlxrt_array *const *arrays, size_t n,
                                  size_t *failed, mlxrt_error *err) {
  if (failed)
    *failed = 0;
  if (n != files->n)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "%zu arrays given for %zu files", n, files->n);
  for (size_t k = 0; k < n; ++k)
    if (!arrays[k] || !files->outputs[k].file) {
      if (failed)
        *failed = k;
      return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                        arrays[k] ? "'%s' was already saved"
                                  : "no array given for '%s'",
                        files->outputs[k].path);
    }
  // Every temporary is complete before anything is renamed into place or
  // written in place, so that a failure leaves every old file as it was.
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t k = 0; k < n; ++k) {
      mlxrt_output *o = &files->outputs[k];
      if (o->direct != (pass == 1))
        continue;
      mlxrt_status st = writeNpy(o, arrays[k], err);
      if (st != MLXRT_OK) {
        if (failed)
          *failed = k;
        return st;
      }
    }
  }
  for (size_t k = 0; k < n; ++k) {
    mlxrt_status st = mlxrt_output_commit(&files->outputs[k], err);
    if (st != MLXRT_OK) {
      if (failed)
        *failed = k;
      return st;
    }
  }
  return MLXRT_OK;
}

void mlxrt_npy_files_close(mlxrt_npy_files *files) {
  if (!files)
    return;
  for (size_t k = 0; k < files->n; ++k)
    mlxrt_output_discard(&files->outputs[k]);
  free(files);
}
