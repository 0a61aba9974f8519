/*===- ArrayReaderFuzzer.c - libFuzzer target of the runtime's readers ----===//
 *
 * Built three times, with FUZZ_NPY, FUZZ_NPZ or FUZZ_SAFETENSORS. The
 * first input byte picks the request: take whatever the file holds, or
 * demand float32 [4, 4] (or bfloat16 [4, 4], read from float32 data).
 *
 *===----------------------------------------------------------------------===*/

#include "runtime/internal.h"

#include <stdio.h>
#include <string.h>

/* A reader over a byte range. */
typedef struct {
  mlxrt_reader base;
  const uint8_t *data;
  size_t size, at;
} memory_reader;

static mlxrt_status memoryRead(mlxrt_reader *r, void *buf, size_t n,
                               size_t *got, mlxrt_error *err) {
  (void)err;
  memory_reader *m = (memory_reader *)r;
  size_t left = m->size - m->at;
  *got = n < left ? n : left;
  memcpy(buf, m->data + m->at, *got);
  m->at += *got;
  return MLXRT_OK;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  int mode = data[0] % 3;
  data++, size--;

  mlxrt_tensor expected, out;
  memset(&out, 0, sizeof(out));
  int64_t dims[2] = {4, 4};
  uint8_t dst[4 * 4 * 4];
  mlxrt_error err;
  mlxrt_tensor_init(&expected,
                    mode == 2 ? MLXRT_DTYPE_BFLOAT16 : MLXRT_DTYPE_FLOAT32, 2,
                    dims, &err);
  mlxrt_load_request req = {mode ? &expected : NULL, mode ? dst : NULL, &out};

  mlxrt_status status;
#if defined(FUZZ_NPY)
  memory_reader r = {{memoryRead, "fuzz.npy", 0, size}, data, size, 0};
  status = mlxrt_npy_load(&r.base, &req, &err);
#else
  FILE *file = fmemopen((void *)data, size ? size : 1, "rb");
  if (!file)
    return 0;
#if defined(FUZZ_NPZ)
  status = mlxrt_npz_load(file, size, "fuzz.npz", "x", &req, &err);
#else
  status =
      mlxrt_safetensors_load(file, size, "fuzz.safetensors", "x", &req, &err);
#endif
  fclose(file);
#endif
  if (status == MLXRT_OK && !mode)
    mlxrt_host_free(out.data);
  return 0;
}
