//===- api.c - Instances, models, arrays and calls ---------------*- C -*-===//
//
// The in-process API of mlxrt_api.h over the device layer (device.c): an
// instance is a device, an array a device buffer with its type, a model the
// descriptor mlxc emitted plus the buffers its outputs go to.
//
// Handles are reference counted (one thread per instance, so plain counts):
// a model or an array holds its instance, and the model holds the array of
// each output it hands out, so that a call reuses that array while the
// caller no longer holds it.
//
// Every handle is checked where it comes in: NULL, or one that was closed,
// released or destroyed, is MLXRT_ERROR_INVALID_ARGUMENT (a no-op for the
// functions that release). A handle's struct carries a magic number while
// it is live; on release the magic is cleared and the memory is kept for a
// later handle of its kind, never handed back to malloc, so a stale handle
// reads a cleared magic, not freed memory. The caller's references are
// counted apart from the model's and the arrays' holds, so one release too
// many cannot take what the runtime itself holds.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

//===----------------------------------------------------------------------===//
// Handles
//===----------------------------------------------------------------------===//

enum {
  MAGIC_INSTANCE = 0x494c584d, ///< "MXLI"
  MAGIC_ARRAY = 0x414c584d,    ///< "MXLA"
  MAGIC_MODEL = 0x4d4c584d,    ///< "MXLM"
};

/// The first member of every handle's struct.
typedef struct Handle {
  uint32_t magic; ///< MAGIC_* while live, 0 once released.
  struct Handle *next;
} Handle;

/// Released structs of one kind, oldest first: reused only once more than
/// kQuarantine wait, so a handle used just after its release still finds
/// it released.
typedef struct {
  Handle *head, *tail;
  size_t count;
} FreeList;
enum { KIND_INSTANCE, KIND_ARRAY, KIND_MODEL, KIND_COUNT };
static const size_t kQuarantine = 256;
static FreeList freeLists[KIND_COUNT];
static pthread_mutex_t freeLock = PTHREAD_MUTEX_INITIALIZER;

static void *handleNew(int kind, size_t size, uint32_t magic) {
  Handle *h = NULL;
  pthread_mutex_lock(&freeLock);
  FreeList *list = &freeLists[kind];
  if (list->count > kQuarantine) {
    h = list->head;
    list->head = h->next;
    if (!list->head)
      list->tail = NULL;
    --list->count;
  }
  pthread_mutex_unlock(&freeLock);
  if (h)
    memset(h, 0, size);
  else if (!(h = calloc(1, size)))
    return NULL;
  h->magic = magic;
  return h;
}

static void handleDelete(int kind, void *p) {
  Handle *h = p;
  h->magic = 0;
  h->next = NULL;
  pthread_mutex_lock(&freeLock);
  FreeList *list = &freeLists[kind];
  if (list->tail)
    list->tail->next = h;
  else
    list->head = h;
  list->tail = h;
  ++list->count;
  pthread_mutex_unlock(&freeLock);
}

struct mlxrt_instance {
  Handle h;
  int refs; ///< The caller's (until destroyed), the models' and arrays'.
  bool destroyed;
  mlxrt_device *dev;
  mlxrt_trace_fn trace; ///< The options' callback (CPU calls report here).
  void *traceUser;
  bool warmUp; ///< Models that may run on zeros do so when they open.
};

struct mlxrt_array {
  Handle h;
  int refs;  ///< The caller's references.
  bool held; ///< By a model, as the buffer of one of its outputs.
  mlxrt_instance *inst;
  mlxrt_tensor type; ///< data is NULL; the bytes are at `data`.
  void *data;        ///< From mlxrt_device_alloc on inst->dev.
};

struct mlxrt_model {
  Handle h;
  mlxrt_instance *inst;
  const mlxrt_model_abi *abi;
  void *library; ///< dlopen handle of a shared object, else NULL.
  mlxrt_signature sig;
  /// On a CUDA instance, the CUDA variant run through mlxrt_device_run;
  /// otherwise the CPU variant, called directly (the device's buffers are
  /// host-visible).
  mlxrt_entry_fn entry;
  bool onDevice;
  mlxrt_array **results; ///< Per output: the model's array (one reference).
  void **args;           ///< Inputs then outputs, for the entry.
  mlxrt_array **fresh;   ///< Per output: arrays made during a call.
};

static bool liveInstance(const mlxrt_instance *i) {
  return i && i->h.magic == MAGIC_INSTANCE && !i->destroyed;
}
static bool liveArray(const mlxrt_array *a) {
  return a && a->h.magic == MAGIC_ARRAY && a->refs > 0;
}
static bool liveModel(const mlxrt_model *m) {
  return m && m->h.magic == MAGIC_MODEL;
}

#define CHECK_HANDLE(live, handle, what, err)                                  \
  do {                                                                         \
    if (!live(handle))                                                         \
      return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,                     \
                        "%s: the " what " is %s", __func__,                    \
                        (handle) ? "no longer valid (released)" : "NULL");     \
  } while (0)
#define CHECK_INSTANCE(i, err) CHECK_HANDLE(liveInstance, i, "instance", err)
#define CHECK_ARRAY(a, err) CHECK_HANDLE(liveArray, a, "array", err)
#define CHECK_MODEL(m, err) CHECK_HANDLE(liveModel, m, "model", err)

//===----------------------------------------------------------------------===//
// Instances
//===----------------------------------------------------------------------===//

void mlxrt_instance_options_init(mlxrt_instance_options *options) {
  memset(options, 0, sizeof(*options));
  options->device = "auto";
}

static void note(const mlxrt_device_config *config, const char *text) {
  if (!config->trace)
    return;
  mlxrt_trace_event event = {MLXRT_TRACE_NOTE, 0, text, 0};
  config->trace(config->traceUser, &event);
}

mlxrt_status mlxrt_instance_create(const mlxrt_instance_options *options,
                                   mlxrt_instance **out, mlxrt_error *err) {
  *out = NULL;
  mlxrt_instance_options defaults;
  if (!options) {
    mlxrt_instance_options_init(&defaults);
    options = &defaults;
  }
  if (options->memory != MLXRT_MEMORY_AUTO &&
      options->memory != MLXRT_MEMORY_COPY)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "unknown memory mode %d", (int)options->memory);
  mlxrt_device_config config;
  memset(&config, 0, sizeof(config));
  config.memory = options->memory;
  config.noGraphs = options->no_cuda_graphs != 0;
  config.libcuda = options->libcuda;
  config.libcublaslt = options->libcublaslt;
  config.cudaHome = options->cuda_home;
  config.trace = options->trace;
  config.traceUser = options->trace_user;
  // Calls after the first allocate no intermediates.
  config.keepIntermediates = true;
  mlxrt_instance *inst =
      handleNew(KIND_INSTANCE, sizeof(*inst), MAGIC_INSTANCE);
  if (!inst)
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  inst->refs = 1;
  inst->trace = options->trace;
  inst->traceUser = options->trace_user;
  inst->warmUp = !options->no_warm_up;
  const char *device = options->device;
  mlxrt_status st;
  if (!device || strcmp(device, "auto") == 0) {
    // A GPU when one is there, else the CPU (the trace says why).
    char reason[512], text[600];
    st = MLXRT_ERROR_DEVICE;
    mlxrt_error cudaErr;
    if (mlxrt_cuda_device_count_with(options->libcuda, reason, sizeof(reason)) >
            0 &&
        (st = mlxrt_device_open_config("cuda", &config, &inst->dev,
                                       &cudaErr)) != MLXRT_OK)
      mlxrt_strlcpy(reason, cudaErr.message, sizeof(reason));
    if (st != MLXRT_OK) {
      snprintf(text, sizeof(text), "no CUDA device (%s); using the CPU",
               reason);
      note(&config, text);
      st = mlxrt_device_open_config("cpu", &config, &inst->dev, err);
    }
  } else {
    st = mlxrt_device_open_config(device, &config, &inst->dev, err);
  }
  if (st != MLXRT_OK) {
    handleDelete(KIND_INSTANCE, inst);
    return st;
  }
  *out = inst;
  return MLXRT_OK;
}

int mlxrt_cuda_device_count(const mlxrt_instance_options *options, char *reason,
                            size_t size) {
  return mlxrt_cuda_device_count_with(options ? options->libcuda : NULL, reason,
                                      size);
}

mlxrt_status mlxrt_cuda_device_name(const mlxrt_instance_options *options,
                                    int ordinal, char *name, size_t size,
                                    mlxrt_error *err) {
  return mlxrt_cuda_device_name_with(options ? options->libcuda : NULL, ordinal,
                                     name, size, err);
}

static void instanceRelease(mlxrt_instance *inst) {
  if (inst && --inst->refs == 0) {
    mlxrt_device_close(inst->dev);
    handleDelete(KIND_INSTANCE, inst);
  }
}

void mlxrt_instance_destroy(mlxrt_instance *instance) {
  // A second destroy must not drop a reference a model or array holds.
  if (!liveInstance(instance))
    return;
  instance->destroyed = true;
  instanceRelease(instance);
}

mlxrt_device_kind mlxrt_instance_device_kind(const mlxrt_instance *instance) {
  if (!liveInstance(instance))
    return (mlxrt_device_kind)-1;
  return mlxrt_device_get_kind(instance->dev);
}

const char *mlxrt_instance_device_name(const mlxrt_instance *instance) {
  if (!liveInstance(instance))
    return NULL;
  return mlxrt_device_description(instance->dev);
}

mlxrt_status mlxrt_instance_synchronize(mlxrt_instance *instance,
                                        mlxrt_error *err) {
  CHECK_INSTANCE(instance, err);
  return mlxrt_device_synchronize(instance->dev, err);
}

//===----------------------------------------------------------------------===//
// Arrays
//===----------------------------------------------------------------------===//

/// A new array of `type` whose bytes are uninitialized.
static mlxrt_status arrayAlloc(mlxrt_instance *inst, const mlxrt_tensor *type,
                               mlxrt_array **out, mlxrt_error *err) {
  *out = NULL;
  mlxrt_array *a = handleNew(KIND_ARRAY, sizeof(*a), MAGIC_ARRAY);
  if (!a)
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  mlxrt_status st = mlxrt_device_alloc(inst->dev, type->nbytes, &a->data, err);
  if (st != MLXRT_OK) {
    handleDelete(KIND_ARRAY, a);
    return st;
  }
  a->refs = 1;
  a->inst = inst;
  ++inst->refs;
  a->type = *type;
  a->type.data = NULL;
  *out = a;
  return MLXRT_OK;
}

mlxrt_status mlxrt_array_create(mlxrt_instance *instance, mlxrt_dtype dtype,
                                int rank, const int64_t *dims, const void *data,
                                size_t nbytes, mlxrt_array **out,
                                mlxrt_error *err) {
  *out = NULL;
  CHECK_INSTANCE(instance, err);
  if ((unsigned)dtype >= MLXRT_DTYPE_COUNT)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT, "unknown dtype %d",
                      (int)dtype);
  mlxrt_tensor type;
  mlxrt_status st = mlxrt_tensor_init(&type, dtype, rank, dims, err);
  if (st != MLXRT_OK)
    return st;
  if (data && nbytes != type.nbytes) {
    char text[256];
    return mlxrt_fail(
        err, MLXRT_ERROR_MISMATCH, "an array of %s holds %zu bytes, got %zu",
        mlxrt_tensor_type_str(&type, text, sizeof(text)), type.nbytes, nbytes);
  }
  mlxrt_array *a;
  if ((st = arrayAlloc(instance, &type, &a, err)) != MLXRT_OK)
    return st;
  if (data)
    memcpy(a->data, data, type.nbytes);
  else
    memset(a->data, 0, type.nbytes);
  mlxrt_device_host_wrote(instance->dev, a->data);
  *out = a;
  return MLXRT_OK;
}

mlxrt_status mlxrt_array_load(mlxrt_instance *instance, const char *spec,
                              mlxrt_array **out, mlxrt_error *err) {
  *out = NULL;
  CHECK_INSTANCE(instance, err);
  mlxrt_tensor t;
  mlxrt_status st = mlxrt_read_tensor(spec, NULL, &t, err);
  if (st != MLXRT_OK)
    return st;
  mlxrt_array *a;
  st = arrayAlloc(instance, &t, &a, err);
  if (st == MLXRT_OK) {
    memcpy(a->data, t.data, t.nbytes);
    mlxrt_device_host_wrote(instance->dev, a->data);
    *out = a;
  }
  mlxrt_host_free(t.data);
  return st;
}

mlxrt_status mlxrt_model_load_input(mlxrt_model *model, size_t k,
                                    const char *spec, mlxrt_array **out,
                                    mlxrt_error *err) {
  *out = NULL;
  CHECK_MODEL(model, err);
  if (k >= model->sig.num_inputs)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "model '%s' has %zu inputs; there is no input %zu",
                      mlxrt_model_name(model), model->sig.num_inputs, k);
  const mlxrt_param *p = &model->sig.inputs[k];
  mlxrt_array *a;
  mlxrt_status st = arrayAlloc(model->inst, &p->type, &a, err);
  if (st == MLXRT_OK) {
    st = mlxrt_load_tensor(spec, p->name, &p->type, a->data, err);
    mlxrt_device_host_wrote(model->inst->dev, a->data);
    if (st != MLXRT_OK)
      mlxrt_array_release(a);
  }
  if (st != MLXRT_OK) {
    mlxrt_error_prefix(err, "input '%s': ", p->name);
    return st;
  }
  *out = a;
  return MLXRT_OK;
}

/// Frees the array once neither the caller nor a model holds it.
static void arrayFreeIfUnused(mlxrt_array *array) {
  if (array->refs > 0 || array->held)
    return;
  mlxrt_device_free(array->inst->dev, array->data);
  instanceRelease(array->inst);
  handleDelete(KIND_ARRAY, array);
}

/// A model's hold on the array of one of its outputs: it takes over the
/// caller's reference of a new array.
static void arrayHold(mlxrt_array *array) {
  array->held = true;
  --array->refs;
}

static void arrayUnhold(mlxrt_array *array) {
  if (!array)
    return;
  array->held = false;
  arrayFreeIfUnused(array);
}

void mlxrt_array_retain(mlxrt_array *array) {
  if (liveArray(array))
    ++array->refs;
}

void mlxrt_array_release(mlxrt_array *array) {
  // Released already (or never an array): nothing of the caller's to drop.
  if (!liveArray(array))
    return;
  --array->refs;
  arrayFreeIfUnused(array);
}

const mlxrt_tensor *mlxrt_array_type(const mlxrt_array *array) {
  return liveArray(array) ? &array->type : NULL;
}

static mlxrt_status checkSize(const mlxrt_array *a, size_t nbytes,
                              mlxrt_error *err) {
  if (nbytes == a->type.nbytes)
    return MLXRT_OK;
  char text[256];
  return mlxrt_fail(err, MLXRT_ERROR_MISMATCH,
                    "the array (%s) holds %zu bytes, got a buffer of %zu",
                    mlxrt_tensor_type_str(&a->type, text, sizeof(text)),
                    a->type.nbytes, nbytes);
}

mlxrt_status mlxrt_array_read(mlxrt_array *array, void *dst, size_t nbytes,
                              mlxrt_error *err) {
  CHECK_ARRAY(array, err);
  mlxrt_status st = checkSize(array, nbytes, err);
  if (st == MLXRT_OK)
    st = mlxrt_device_read(array->inst->dev, array->data, dst, nbytes, err);
  return st;
}

mlxrt_status mlxrt_array_write(mlxrt_array *array, const void *src,
                               size_t nbytes, mlxrt_error *err) {
  CHECK_ARRAY(array, err);
  mlxrt_status st = checkSize(array, nbytes, err);
  if (st == MLXRT_OK)
    st = mlxrt_device_before_host_write(array->inst->dev, array->data, err);
  if (st == MLXRT_OK && nbytes)
    memcpy(array->data, src, nbytes);
  if (st == MLXRT_OK)
    mlxrt_device_host_wrote(array->inst->dev, array->data);
  return st;
}

mlxrt_status mlxrt_array_map(mlxrt_array *array, mlxrt_access access,
                             void **data, mlxrt_error *err) {
  *data = NULL;
  CHECK_ARRAY(array, err);
  if (!(access & MLXRT_ACCESS_READ_WRITE) ||
      (access & ~MLXRT_ACCESS_READ_WRITE))
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "unknown access %d (expected MLXRT_ACCESS_READ, _WRITE "
                      "or _READ_WRITE)",
                      (int)access);
  mlxrt_status st = MLXRT_OK;
  if (access & MLXRT_ACCESS_WRITE)
    st = mlxrt_device_before_host_write(array->inst->dev, array->data, err);
  // Written bytes may be only some of them: the others must be current too.
  if (st == MLXRT_OK)
    st = mlxrt_device_to_host(array->inst->dev, array->data, err);
  if (st != MLXRT_OK)
    return st;
  if (access & MLXRT_ACCESS_WRITE)
    mlxrt_device_host_wrote(array->inst->dev, array->data);
  *data = array->data;
  return MLXRT_OK;
}

mlxrt_status mlxrt_array_save(mlxrt_array *array, const char *path,
                              mlxrt_error *err) {
  CHECK_ARRAY(array, err);
  mlxrt_status st = mlxrt_device_to_host(array->inst->dev, array->data, err);
  if (st != MLXRT_OK)
    return st;
  mlxrt_tensor t = array->type;
  t.data = array->data;
  return mlxrt_npy_save(path, &t, err);
}

//===----------------------------------------------------------------------===//
// Models
//===----------------------------------------------------------------------===//

mlxrt_status mlxrt_model_describe(const struct mlxrt_model_abi *linked,
                                  mlxrt_model_info *info, mlxrt_error *err) {
  memset(info, 0, sizeof(*info));
  if (!linked)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT, "no model given");
  if (linked->abi_version != MLXRT_ABI_VERSION)
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "model compiled for runtime ABI %u; this runtime (%s) "
                      "has ABI %d: recompile it with the matching mlxc",
                      linked->abi_version, mlxrt_version(), MLXRT_ABI_VERSION);
  info->name = linked->name;
  info->signature = linked->signature;
  info->has_cuda = linked->entry_cuda != NULL;
  return MLXRT_OK;
}

/// Runs the model with every input a view of one zeroed buffer and its own
/// output arrays, untraced: the kernels it launches and the products' plans
/// and cuBLASLt kernels are loaded, and the intermediates allocated, before
/// the first call. It runs twice, the second time captured into a CUDA
/// graph that, once the zeros go, the first call's capture updates rather
/// than instantiating its own (cuda_graph.c). Only for programs whose host
/// code reads no buffer (the inputs are only read; zeros index in bounds).
static mlxrt_status warmUp(mlxrt_model *m, mlxrt_error *err) {
  int64_t bytes = 1;
  for (size_t k = 0; k < m->sig.num_inputs; ++k)
    if ((int64_t)m->sig.inputs[k].type.nbytes > bytes)
      bytes = (int64_t)m->sig.inputs[k].type.nbytes;
  mlxrt_array *zeros;
  mlxrt_status st = mlxrt_array_create(m->inst, MLXRT_DTYPE_UINT8, 1, &bytes,
                                       NULL, 0, &zeros, err);
  if (st != MLXRT_OK)
    return st;
  size_t nin = m->sig.num_inputs, nout = m->sig.num_outputs;
  for (size_t k = 0; k < nin; ++k)
    m->args[k] = zeros->data;
  for (size_t k = 0; k < nout; ++k)
    m->args[nin + k] = m->results[k]->data;
  mlxrt_device *dev = m->inst->dev;
  mlxrt_device_set_trace(dev, NULL, NULL);
  st = mlxrt_device_run_resident(dev, m->entry, m->args, nin, nout, err);
  if (st == MLXRT_OK)
    st = mlxrt_device_run_resident(dev, m->entry, m->args, nin, nout, err);
  if (st == MLXRT_OK)
    st = mlxrt_device_synchronize(dev, err);
  mlxrt_device_set_trace(dev, m->inst->trace, m->inst->traceUser);
  mlxrt_array_release(zeros);
  return st;
}

mlxrt_status mlxrt_model_open(mlxrt_instance *instance,
                              const struct mlxrt_model_abi *linked,
                              mlxrt_model **out, mlxrt_error *err) {
  *out = NULL;
  mlxrt_model_info info;
  mlxrt_status described = mlxrt_model_describe(linked, &info, err);
  if (described != MLXRT_OK)
    return described;
  CHECK_INSTANCE(instance, err);
  mlxrt_model *m = handleNew(KIND_MODEL, sizeof(*m), MAGIC_MODEL);
  if (!m)
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  m->inst = instance;
  ++instance->refs;
  m->abi = linked;
  mlxrt_status st = mlxrt_signature_parse(linked->signature, &m->sig, err);
  if (st != MLXRT_OK) {
    mlxrt_error_prefix(err, "model '%s': ", linked->name);
    mlxrt_model_close(m);
    return st;
  }
  m->onDevice = mlxrt_device_get_kind(instance->dev) == MLXRT_DEVICE_CUDA &&
                linked->entry_cuda;
  m->entry = m->onDevice ? linked->entry_cuda : linked->entry;
  // The kernels' JIT and cuBLASLt now, not in the first call.
  if (m->onDevice &&
      (st = mlxrt_device_prepare(instance->dev,
                                 linked->flags & MLXRT_MODEL_USES_MATMUL,
                                 err)) != MLXRT_OK) {
    mlxrt_error_prefix(err, "model '%s': ", linked->name);
    mlxrt_model_close(m);
    return st;
  }
  size_t nin = m->sig.num_inputs, nout = m->sig.num_outputs;
  m->results = calloc(nout + 1, sizeof(*m->results));
  m->fresh = calloc(nout + 1, sizeof(*m->fresh));
  m->args = calloc(nin + nout + 1, sizeof(*m->args));
  if (!m->results || !m->fresh || !m->args) {
    mlxrt_model_close(m);
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  // The outputs' buffers now, not in the first call.
  for (size_t k = 0; k < nout; ++k) {
    st = arrayAlloc(instance, &m->sig.outputs[k].type, &m->results[k], err);
    if (st == MLXRT_OK)
      arrayHold(m->results[k]);
    if (st != MLXRT_OK) {
      mlxrt_error_prefix(err, "model '%s', output '%s': ", linked->name,
                         m->sig.outputs[k].name);
      mlxrt_model_close(m);
      return st;
    }
  }
  if (m->onDevice && instance->warmUp &&
      (linked->flags & MLXRT_MODEL_CAPTURABLE) &&
      (st = warmUp(m, err)) != MLXRT_OK) {
    mlxrt_error_prefix(err,
                       "model '%s', running it once on zeros: ", linked->name);
    mlxrt_model_close(m);
    return st;
  }
  *out = m;
  return MLXRT_OK;
}

mlxrt_status mlxrt_model_open_linked(mlxrt_instance *instance, const char *name,
                                     mlxrt_model **out, mlxrt_error *err) {
  *out = NULL;
  CHECK_INSTANCE(instance, err);
  char symbol[256];
  int n = snprintf(symbol, sizeof(symbol), "%s%s%s", MLXRT_SYMBOL_PREFIX,
                   name ? name : "", MLXRT_MODEL_SUFFIX);
  if (!name || !*name || n < 0 || (size_t)n >= sizeof(symbol))
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "bad model name '%.64s'", name ? name : "(null)");
  // The program and the libraries it links, as one symbol table.
  void *self = dlopen(NULL, RTLD_NOW);
  const mlxrt_model_abi *abi = self ? dlsym(self, symbol) : NULL;
  if (self)
    dlclose(self);
  if (!abi)
    return mlxrt_fail(err, MLXRT_ERROR_NOT_FOUND,
                      "no model named '%s' in this program: %s is not among "
                      "its exported symbols (link with -rdynamic, or open "
                      "MLXRT_LINKED_MODEL(%s))",
                      name, symbol, name);
  return mlxrt_model_open(instance, abi, out, err);
}

/// Reads `size` bytes at `offset` of the open file, all or fails.
static bool readAt(int fd, void *buf, size_t size, uint64_t offset) {
  size_t done = 0;
  while (done < size) {
    ssize_t n =
        pread(fd, (char *)buf + done, size - done, (off_t)(offset + done));
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += (size_t)n;
  }
  return true;
}

/// Whether [offset, offset + count * entry) lies within `size` bytes.
static bool within(uint64_t offset, uint64_t count, uint64_t entry,
                   uint64_t size) {
  return offset <= size && (entry == 0 || count <= (size - offset) / entry);
}

/// Checks a shared object's file before dlopen maps it: dlopen of a
/// truncated file faults (SIGBUS) on the pages past its end. A regular file
/// with a 64-bit ELF header of this machine, whose program and section
/// header tables and loaded segments lie within the file.
static mlxrt_status checkSharedObject(const char *path, mlxrt_error *err) {
  // A bare name is searched as dlopen searches: nothing to check here.
  if (!strchr(path, '/'))
    return MLXRT_OK;
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return mlxrt_fail(err, MLXRT_ERROR_IO, "cannot load '%s': %s", path,
                      strerror(errno));
  const char *why = NULL;
  struct stat info;
  Elf64_Ehdr eh;
  if (fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
    why = "not a regular file";
  } else if (!readAt(fd, &eh, sizeof(eh), 0) ||
             memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0) {
    why = "not an ELF file (or shorter than its header)";
  } else if (eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_type != ET_DYN ||
             eh.e_phentsize != sizeof(Elf64_Phdr) ||
             (eh.e_shnum && eh.e_shentsize != sizeof(Elf64_Shdr))) {
    why = "not a 64-bit ELF shared object";
  } else {
    uint64_t size = (uint64_t)info.st_size;
    if (!within(eh.e_phoff, eh.e_phnum, eh.e_phentsize, size) ||
        !within(eh.e_shoff, eh.e_shnum, eh.e_shentsize, size))
      why = "truncated: its header tables end past the end of the file";
    for (unsigned k = 0; !why && k < eh.e_phnum; ++k) {
      Elf64_Phdr ph;
      if (!readAt(fd, &ph, sizeof(ph), eh.e_phoff + (uint64_t)k * sizeof(ph)))
        why = "cannot read its program headers";
      else if (ph.p_type == PT_LOAD &&
               !within(ph.p_offset, 1, ph.p_filesz, size))
        why = "truncated: a loaded segment ends past the end of the file";
    }
  }
  close(fd);
  if (why)
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT, "cannot load '%s': %s", path,
                      why);
  return MLXRT_OK;
}

mlxrt_status mlxrt_model_load(mlxrt_instance *instance, const char *path,
                              mlxrt_model **out, mlxrt_error *err) {
  *out = NULL;
  CHECK_INSTANCE(instance, err);
  if (!path)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT, "no path given");
  mlxrt_status checked = checkSharedObject(path, err);
  if (checked != MLXRT_OK)
    return checked;
  dlerror();
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = dlerror();
    return mlxrt_fail(err, MLXRT_ERROR_IO, "cannot load '%s': %s", path,
                      why ? why : "dlopen failed");
  }
  const mlxrt_model_abi *const *shared =
      (const mlxrt_model_abi *const *)dlsym(library, MLXRT_SHARED_MODEL_SYMBOL);
  if (!shared || !*shared) {
    dlclose(library);
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "'%s' is not a model made by mlxc --emit=shared (it "
                      "has no %s)",
                      path, MLXRT_SHARED_MODEL_SYMBOL);
  }
  mlxrt_status st = mlxrt_model_open(instance, *shared, out, err);
  if (st != MLXRT_OK) {
    mlxrt_error_prefix(err, "%s: ", path);
    dlclose(library);
    return st;
  }
  (*out)->library = library;
  return MLXRT_OK;
}

void mlxrt_model_close(mlxrt_model *model) {
  if (!liveModel(model))
    return;
  // Its code and buffers go: nothing of it may still run. A failure of its
  // calls is not reported here (mlxrt_instance_synchronize reports it).
  mlxrt_device_synchronize(model->inst->dev, NULL);
  for (size_t k = 0; model->results && k < model->sig.num_outputs; ++k)
    arrayUnhold(model->results[k]);
  free(model->results);
  free(model->fresh);
  free(model->args);
  mlxrt_signature_free(&model->sig);
  // The code goes last: nothing of the model runs after this, and what the
  // device keeps of it (graphs; that it ran) is forgotten first.
  if (model->entry)
    mlxrt_device_forget_program(model->inst->dev, model->entry);
  if (model->library)
    dlclose(model->library);
  instanceRelease(model->inst);
  handleDelete(KIND_MODEL, model);
}

const char *mlxrt_model_name(const mlxrt_model *model) {
  return liveModel(model) ? model->abi->name : NULL;
}

const mlxrt_signature *mlxrt_model_signature(const mlxrt_model *model) {
  return liveModel(model) ? &model->sig : NULL;
}

int mlxrt_model_has_cuda(const mlxrt_model *model) {
  return liveModel(model) && model->abi->entry_cuda != NULL;
}

long mlxrt_model_find_input(const mlxrt_model *model, const char *name) {
  if (!liveModel(model) || !name)
    return -1;
  for (size_t k = 0; k < model->sig.num_inputs; ++k)
    if (strcmp(model->sig.inputs[k].name, name) == 0)
      return (long)k;
  return -1;
}

mlxrt_status mlxrt_model_bind_file(mlxrt_model *model, const char *path,
                                   mlxrt_array **inputs, size_t num_inputs,
                                   size_t *num_bound, mlxrt_error *err) {
  if (num_bound)
    *num_bound = 0;
  CHECK_MODEL(model, err);
  if (!path || (num_inputs && !inputs))
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "mlxrt_model_bind_file: no path or no slots given");
  if (num_inputs != model->sig.num_inputs)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "model '%s' has %zu inputs, got %zu slots",
                      mlxrt_model_name(model), model->sig.num_inputs,
                      num_inputs);
  // A .npy holds one nameless tensor: it would bind every input.
  FILE *f = fopen(path, "rb");
  if (!f)
    return mlxrt_fail(err, MLXRT_ERROR_IO, "cannot open '%s'", path);
  char magic[6] = {0};
  size_t got = fread(magic, 1, sizeof(magic), f);
  fclose(f);
  if (got == sizeof(magic) && memcmp(magic, "\x93NUMPY", 6) == 0)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "'%s' is a .npy file; binding by name needs a "
                      ".safetensors or .npz file",
                      path);
  bool *made = calloc(num_inputs + 1, sizeof(bool));
  if (!made)
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  mlxrt_status st = MLXRT_OK;
  size_t bound = 0, open = 0;
  // What the file holds, from a lookup that missed: for the error below.
  char held[1024] = "";
  char wanted[512] = "";
  size_t numWanted = 0;
  for (size_t k = 0; k < num_inputs && st == MLXRT_OK; ++k) {
    if (inputs[k])
      continue;
    ++open;
    const mlxrt_param *p = &model->sig.inputs[k];
    mlxrt_array *a;
    st = arrayAlloc(model->inst, &p->type, &a, err);
    if (st != MLXRT_OK)
      break;
    mlxrt_error loadErr;
    st = mlxrt_load_tensor(path, p->name, &p->type, a->data, &loadErr);
    mlxrt_device_host_wrote(model->inst->dev, a->data);
    if (st == MLXRT_OK) {
      inputs[k] = a;
      made[k] = true;
      ++bound;
    } else {
      mlxrt_array_release(a);
      if (st == MLXRT_ERROR_NOT_FOUND) {
        st = MLXRT_OK; // Not in the file: another source binds it.
        mlxrt_append_name(wanted, sizeof(wanted), &numWanted, p->name);
        const char *list = strstr(loadErr.message, " holds ");
        if (list && !held[0])
          mlxrt_strlcpy(held, list + strlen(" holds "), sizeof(held));
      } else if (err) {
        // A mismatch belongs to the input; a bad file to the file alone.
        *err = loadErr;
        if (st == MLXRT_ERROR_MISMATCH)
          mlxrt_error_prefix(err, "input '%s': ", p->name);
      }
    }
  }
  // A file that binds none of the open inputs is the wrong file (another
  // model's weights, or tensors named otherwise): say what each side has.
  if (st == MLXRT_OK && open && !bound) {
    size_t n = strlen(held);
    if (n && held[n - 1] == ')')
      held[n - 1] = '\0';
    st = mlxrt_fail(err, MLXRT_ERROR_NOT_FOUND,
                    "%s binds none of the inputs of model '%s': it holds %s; "
                    "the inputs to bind are %s",
                    path, mlxrt_model_name(model), held[0] ? held : "nothing",
                    wanted);
  }
  // After a failure nothing changes: the slots bound here are empty again.
  for (size_t k = 0; st != MLXRT_OK && k < num_inputs; ++k)
    if (made[k]) {
      mlxrt_array_release(inputs[k]);
      inputs[k] = NULL;
    }
  free(made);
  if (st == MLXRT_OK && num_bound)
    *num_bound = bound;
  return st;
}

//===----------------------------------------------------------------------===//
// Calls
//===----------------------------------------------------------------------===//

/// Checks one argument array against the signature's parameter.
static mlxrt_status checkArray(const mlxrt_model *m, const mlxrt_array *a,
                               const mlxrt_param *p, const char *kind,
                               mlxrt_error *err) {
  if (!a)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "model '%s', %s '%s': no array given",
                      mlxrt_model_name(m), kind, p->name);
  if (!liveArray(a))
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "model '%s', %s '%s': the array is no longer valid "
                      "(released)",
                      mlxrt_model_name(m), kind, p->name);
  if (a->inst != m->inst)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "model '%s', %s '%s': the array belongs to another "
                      "instance",
                      mlxrt_model_name(m), kind, p->name);
  if (mlxrt_tensor_same_type(&a->type, &p->type))
    return MLXRT_OK;
  char want[256], got[256];
  return mlxrt_fail(err, MLXRT_ERROR_MISMATCH,
                    "model '%s', %s '%s': expected %s, got %s",
                    mlxrt_model_name(m), kind, p->name,
                    mlxrt_tensor_type_str(&p->type, want, sizeof(want)),
                    mlxrt_tensor_type_str(&a->type, got, sizeof(got)));
}

static bool isInput(mlxrt_array *const *inputs, size_t n,
                    const mlxrt_array *a) {
  for (size_t i = 0; i < n; ++i)
    if (inputs[i] == a)
      return true;
  return false;
}

/// Whether output `k`, given the donated array `dst`, is written into it in
/// place: the signature pairs the output, for the variant that runs, with
/// the input `dst` is passed as.
static bool sharesInput(const mlxrt_model *m, mlxrt_array *const *inputs,
                        size_t k, const mlxrt_array *dst) {
  const mlxrt_param *p = &m->sig.outputs[k];
  long j = m->onDevice ? p->cuda_in_place_of : p->cpu_in_place_of;
  return j >= 0 && inputs[j] == dst;
}

mlxrt_status mlxrt_model_call(mlxrt_model *model, mlxrt_array *const *inputs,
                              size_t num_inputs, mlxrt_array **outputs,
                              size_t num_outputs, mlxrt_error *err) {
  CHECK_MODEL(model, err);
  mlxrt_model *m = model;
  const mlxrt_signature *sig = &m->sig;
  if (num_inputs != sig->num_inputs || num_outputs != sig->num_outputs)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "model '%s' takes %zu input%s and %zu output%s, got "
                      "%zu and %zu",
                      mlxrt_model_name(m), sig->num_inputs,
                      sig->num_inputs == 1 ? "" : "s", sig->num_outputs,
                      sig->num_outputs == 1 ? "" : "s", num_inputs,
                      num_outputs);
  mlxrt_status st = MLXRT_OK;
  if ((num_inputs && !inputs) || (num_outputs && !outputs))
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "model '%s': no array of inputs or outputs given",
                      mlxrt_model_name(m));
  for (size_t k = 0; k < num_inputs; ++k)
    if ((st = checkArray(m, inputs[k], &sig->inputs[k], "input", err)) !=
        MLXRT_OK)
      return st;
  for (size_t k = 0; k < num_outputs; ++k) {
    if (!outputs[k])
      continue;
    if ((st = checkArray(m, outputs[k], &sig->outputs[k], "output", err)) !=
        MLXRT_OK)
      return st;
    for (size_t j = 0; j < k; ++j)
      if (outputs[j] == outputs[k])
        return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                          "model '%s': outputs '%s' and '%s' are given the "
                          "same array",
                          mlxrt_model_name(m), sig->outputs[j].name,
                          sig->outputs[k].name);
  }

  // Where each output goes: a given array, unless it is donated (also an
  // input), in which case, as for an empty slot, the model's own array,
  // or a new one while the caller still holds that.
  for (size_t k = 0; k < num_outputs; ++k) {
    m->fresh[k] = NULL;
    mlxrt_array *dst = outputs[k];
    if (dst && sharesInput(m, inputs, k, dst)) {
      // The program updates the donated input where it is.
      m->args[num_inputs + k] = dst->data;
      continue;
    }
    if (!dst || isInput(inputs, num_inputs, dst)) {
      dst = m->results[k];
      // The caller still holds the model's array: a new one.
      if (dst->refs > 0 && (st = arrayAlloc(m->inst, &sig->outputs[k].type,
                                            &m->fresh[k], err)) != MLXRT_OK) {
        mlxrt_error_prefix(err,
                           "model '%s', output '%s': ", mlxrt_model_name(m),
                           sig->outputs[k].name);
        for (size_t j = 0; j < k; ++j)
          mlxrt_array_release(m->fresh[j]);
        return st;
      }
      if (m->fresh[k])
        dst = m->fresh[k];
    }
    m->args[num_inputs + k] = dst->data;
  }
  for (size_t k = 0; k < num_inputs; ++k)
    m->args[k] = inputs[k]->data;

  mlxrt_device *dev = m->inst->dev;
  if (m->onDevice) {
    st = mlxrt_device_run_resident(dev, m->entry, m->args, num_inputs,
                                   num_outputs, err);
  } else {
    // The CPU variant reads and writes the host's view of the buffers, once
    // no call on the device uses them.
    st = mlxrt_device_synchronize(dev, err);
    for (size_t k = 0; k < num_inputs && st == MLXRT_OK; ++k)
      st = mlxrt_device_to_host(dev, m->args[k], err);
    if (st == MLXRT_OK) {
      double start = m->inst->trace ? mlxrt_now_ms() : 0;
      m->entry(m->args);
      if (m->inst->trace) {
        mlxrt_trace_event event = {MLXRT_TRACE_PROGRAM, mlxrt_now_ms() - start,
                                   "", 0};
        m->inst->trace(m->inst->traceUser, &event);
      }
    }
    for (size_t k = 0; k < num_outputs && st == MLXRT_OK; ++k)
      mlxrt_device_host_wrote(dev, m->args[num_inputs + k]);
  }
  if (st != MLXRT_OK) {
    mlxrt_error_prefix(err, "model '%s': ", mlxrt_model_name(m));
    for (size_t k = 0; k < num_outputs; ++k)
      mlxrt_array_release(m->fresh[k]);
    return st;
  }

  for (size_t k = 0; k < num_outputs; ++k) {
    mlxrt_array *given = outputs[k];
    bool donated = given && isInput(inputs, num_inputs, given);
    if ((given && !donated) || (donated && sharesInput(m, inputs, k, given)))
      continue;
    // The model's array for output k is now the one written (a new one
    // replaces the one the caller still holds).
    if (m->fresh[k]) {
      arrayUnhold(m->results[k]);
      m->results[k] = m->fresh[k];
      arrayHold(m->results[k]);
      m->fresh[k] = NULL;
    }
    mlxrt_array *written = m->results[k];
    if (donated) {
      // The donated array takes the new bytes; its old ones become the
      // model's buffer for the next call.
      void *data = given->data;
      given->data = written->data;
      written->data = data;
    } else {
      ++written->refs;
      outputs[k] = written;
    }
  }
  return MLXRT_OK;
}
