//===- npy.c - Read and write numpy's .npy format ----------------*- C -*-===//
//
// Format:
// https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
// "\x93NUMPY", major and minor version bytes, the header length (2 bytes in
// version 1.0, 4 bytes in 2.0 and 3.0), then a Python dict literal such as
// {'descr': '<f4', 'fortran_order': False, 'shape': (8, 64), } padded with
// spaces and a newline, then the data.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/// numpy never writes headers near this size; a larger value is corruption.
#define MAX_HEADER_BYTES (16u << 20)

static const struct {
  const char *descr;
  mlxrt_dtype dtype;
} Descrs[] = {
    {"|b1", MLXRT_DTYPE_BOOL},
    {"<b1", MLXRT_DTYPE_BOOL},
    {"|u1", MLXRT_DTYPE_UINT8},
    {"<u1", MLXRT_DTYPE_UINT8},
    {"<u2", MLXRT_DTYPE_UINT16},
    {"<u4", MLXRT_DTYPE_UINT32},
    {"<u8", MLXRT_DTYPE_UINT64},
    {"|i1", MLXRT_DTYPE_INT8},
    {"<i1", MLXRT_DTYPE_INT8},
    {"<i2", MLXRT_DTYPE_INT16},
    {"<i4", MLXRT_DTYPE_INT32},
    {"<i8", MLXRT_DTYPE_INT64},
    {"<f2", MLXRT_DTYPE_FLOAT16},
    {"<f4", MLXRT_DTYPE_FLOAT32},
    {"<f8", MLXRT_DTYPE_FLOAT64},
    {"<c8", MLXRT_DTYPE_COMPLEX64},
    // numpy has no bfloat16: MLX (mx.save, mx.load) and ml_dtypes store it
    // as a 2-byte void, '<V2' (numpy itself spells that '|V2').
    {"<V2", MLXRT_DTYPE_BFLOAT16},
    {"|V2", MLXRT_DTYPE_BFLOAT16},
};

/// The descr numpy writes for a dtype; for bfloat16 the one mx.save writes.
static const char *descrFor(mlxrt_dtype dtype) {
  switch (dtype) {
  case MLXRT_DTYPE_BOOL:
    return "|b1";
  case MLXRT_DTYPE_UINT8:
    return "|u1";
  case MLXRT_DTYPE_INT8:
    return "|i1";
  default:
    break;
  }
  for (size_t i = 0; i < sizeof(Descrs) / sizeof(Descrs[0]); ++i)
    if (Descrs[i].dtype == dtype && Descrs[i].descr[0] == '<')
      return Descrs[i].descr;
  return NULL;
}

//===----------------------------------------------------------------------===//
// Header parsing: the subset of Python literal syntax numpy writes
//===----------------------------------------------------------------------===//

typedef struct {
  const char *text;
  size_t len, at;
  uint64_t base; // File offset of text[0], for messages.
  const char *what;
  mlxrt_error *err;
} HeaderParser;

static mlxrt_status headerError(HeaderParser *p, const char *expected) {
  return mlxrt_fail(p->err, MLXRT_ERROR_FORMAT,
                    "%s: malformed npy header at byte offset %" PRIu64
                    ": expected %s",
                    p->what, p->base + p->at, expected);
}

static void skipSpace(HeaderParser *p) {
  while (p->at < p->len && (p->text[p->at] == ' ' || p->text[p->at] == '\t' ||
                            p->text[p->at] == '\n' || p->text[p->at] == '\r'))
    ++p->at;
}

static bool consume(HeaderParser *p, char c) {
  skipSpace(p);
  if (p->at < p->len && p->text[p->at] == c) {
    ++p->at;
    return true;
  }
  return false;
}

static bool consumeWord(HeaderParser *p, const char *word) {
  skipSpace(p);
  size_t n = strlen(word);
  if (p->len - p->at >= n && memcmp(p->text + p->at, word, n) == 0) {
    p->at += n;
    return true;
  }
  return false;
}

/// A quoted string without escapes or control characters (numpy's keys and
/// descrs have none; a NUL would cut a descr short when compared).
static mlxrt_status parseString(HeaderParser *p, const char **s, size_t *n) {
  skipSpace(p);
  if (p->at == p->len || (p->text[p->at] != '\'' && p->text[p->at] != '"'))
    return headerError(p, "a quoted string");
  char quote = p->text[p->at++];
  size_t start = p->at;
  while (p->at < p->len && p->text[p->at] != quote) {
    unsigned char c = (unsigned char)p->text[p->at];
    if (c == '\\')
      return headerError(p, "a string without escapes");
    if (c == '\n') // Where numpy's padding ends: the string is open.
      return headerError(p, "a closing quote");
    if (c < 0x20 || c == 0x7f)
      return headerError(p, "a string without control characters");
    ++p->at;
  }
  if (p->at == p->len)
    return headerError(p, "a closing quote");
  *s = p->text + start;
  *n = p->at - start;
  ++p->at;
  return MLXRT_OK;
}

/// A shape tuple: "()", "(8,)", "(8, 64)"; Python 2 wrote "8L".
static mlxrt_status parseShape(HeaderParser *p, int *rank, int64_t *dims) {
  *rank = 0;
  if (!consume(p, '('))
    return headerError(p, "a shape tuple '('");
  for (;;) {
    if (consume(p, ')'))
      return MLXRT_OK;
    skipSpace(p);
    if (p->at == p->len || p->text[p->at] < '0' || p->text[p->at] > '9')
      return headerError(p, "a non-negative integer or ')'");
    size_t start = p->at;
    int64_t value = 0;
    while (p->at < p->len && p->text[p->at] >= '0' && p->text[p->at] <= '9') {
      int digit = p->text[p->at] - '0';
      if (value > (INT64_MAX - digit) / 10) {
        p->at = start;
        return headerError(p, "a dimension that fits in 64 bits");
      }
      value = value * 10 + digit;
      ++p->at;
    }
    if (p->at < p->len && p->text[p->at] == 'L')
      ++p->at;
    if (*rank == MLXRT_MAX_RANK)
      return mlxrt_fail(p->err, MLXRT_ERROR_FORMAT,
                        "%s: arrays of more than %d dimensions are not "
                        "supported",
                        p->what, MLXRT_MAX_RANK);
    dims[(*rank)++] = value;
    if (!consume(p, ',')) {
      if (!consume(p, ')'))
        return headerError(p, "',' or ')' in the shape");
      return MLXRT_OK;
    }
  }
}

typedef struct {
  bool hasDescr, hasOrder, hasShape;
  char descr[32]; // Longer ones are cut (and known to none).
  bool fortran;
  int rank;
  int64_t dims[MLXRT_MAX_RANK];
} Header;

static mlxrt_status parseHeader(HeaderParser *p, Header *h) {
  memset(h, 0, sizeof(*h));
  mlxrt_status st;
  if (!consume(p, '{'))
    return headerError(p, "'{'");
  while (!consume(p, '}')) {
    const char *key;
    size_t keyLen;
    if ((st = parseString(p, &key, &keyLen)) != MLXRT_OK)
      return st;
    if (!consume(p, ':'))
      return headerError(p, "':' after a key");
    if (keyLen == 5 && memcmp(key, "descr", 5) == 0) {
      skipSpace(p);
      if (p->at < p->len && p->text[p->at] == '[')
        return mlxrt_fail(p->err, MLXRT_ERROR_FORMAT,
                          "%s: structured arrays are not supported", p->what);
      const char *descr;
      size_t descrLen;
      if ((st = parseString(p, &descr, &descrLen)) != MLXRT_OK)
        return st;
      if (descrLen >= sizeof(h->descr))
        descrLen = sizeof(h->descr) - 1;
      memcpy(h->descr, descr, descrLen);
      h->hasDescr = true;
    } else if (keyLen == 13 && memcmp(key, "fortran_order", 13) == 0) {
      if (consumeWord(p, "True"))
        h->fortran = true;
      else if (consumeWord(p, "False"))
        h->fortran = false;
      else
        return headerError(p, "True or False");
      h->hasOrder = true;
    } else if (keyLen == 5 && memcmp(key, "shape", 5) == 0) {
      if ((st = parseShape(p, &h->rank, h->dims)) != MLXRT_OK)
        return st;
      h->hasShape = true;
    } else {
      return mlxrt_fail(p->err, MLXRT_ERROR_FORMAT,
                        "%s: malformed npy header: unexpected key '%.*s'",
                        p->what, (int)keyLen, key);
    }
    if (!consume(p, ',')) {
      if (!consume(p, '}'))
        return headerError(p, "',' or '}'");
      break;
    }
  }
  // numpy pads the header with spaces and ends it with a newline.
  skipSpace(p);
  if (p->at != p->len && p->text[p->at] != '\0')
    return headerError(p, "only padding after '}'");
  if (!h->hasDescr || !h->hasOrder || !h->hasShape)
    return mlxrt_fail(p->err, MLXRT_ERROR_FORMAT,
                      "%s: malformed npy header: missing key '%s'", p->what,
                      !h->hasDescr   ? "descr"
                      : !h->hasOrder ? "fortran_order"
                                     : "shape");
  return MLXRT_OK;
}

static mlxrt_status dtypeFromDescr(const char *descr, const char *what,
                                   mlxrt_dtype *dtype, mlxrt_error *err) {
  for (size_t i = 0; i < sizeof(Descrs) / sizeof(Descrs[0]); ++i) {
    if (strcmp(descr, Descrs[i].descr) == 0) {
      *dtype = Descrs[i].dtype;
      return MLXRT_OK;
    }
  }
  if (descr[0] == '>')
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "%s: big-endian data ('%s') is not supported; save it "
                      "little-endian, e.g. with arr.astype(arr.dtype."
                      "newbyteorder('<'))",
                      what, descr);
  return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                    "%s: unsupported npy dtype '%s' (supported: bool, "
                    "int8-64, uint8-64, float16, bfloat16 as '<V2', float32, "
                    "float64, complex64)",
                    what, descr);
}

//===----------------------------------------------------------------------===//
// Fortran order
//===----------------------------------------------------------------------===//

/// Whether C and Fortran order lay the array out alike: no elements, or at
/// most one dimension longer than 1 (so every rank <= 1 array).
static bool sameInBothOrders(const mlxrt_tensor *t) {
  int longer = 0;
  for (int i = 0; i < t->rank; ++i) {
    if (t->dims[i] == 0)
      return true;
    longer += t->dims[i] > 1;
  }
  return longer <= 1;
}

/// Moves t->data from Fortran order (first index fastest) to C order,
/// through a copy of it.
static mlxrt_status fortranToC(mlxrt_tensor *t, const char *what,
                               mlxrt_error *err) {
  void *copy;
  mlxrt_status st = mlxrt_host_alloc(t->nbytes, &copy, err);
  if (st != MLXRT_OK) {
    mlxrt_error_prefix(err, "%s: reordering Fortran-order data: ", what);
    return st;
  }
  memcpy(copy, t->data, t->nbytes);
  // C-order strides, in elements.
  uint64_t stride[MLXRT_MAX_RANK];
  int64_t index[MLXRT_MAX_RANK] = {0};
  uint64_t step = 1;
  for (int k = t->rank - 1; k >= 0; --k) {
    stride[k] = step;
    step *= (uint64_t)t->dims[k];
  }
  size_t size = mlxrt_dtype_size(t->dtype);
  const unsigned char *src = copy;
  unsigned char *dst = t->data;
  uint64_t n = mlxrt_tensor_numel(t), at = 0;
  for (uint64_t i = 0; i < n; ++i, src += size) {
    // Fixed sizes let the compiler make each copy one move.
    switch (size) {
    case 1:
      dst[at] = *src;
      break;
    case 2:
      memcpy(dst + at * 2, src, 2);
      break;
    case 4:
      memcpy(dst + at * 4, src, 4);
      break;
    default:
      memcpy(dst + at * 8, src, 8);
      break;
    }
    // The next element in Fortran order: an odometer, first index fastest.
    for (int k = 0; k < t->rank; ++k) {
      at += stride[k];
      if (++index[k] < t->dims[k])
        break;
      at -= stride[k] * (uint64_t)t->dims[k];
      index[k] = 0;
    }
  }
  mlxrt_host_free(copy);
  return MLXRT_OK;
}

mlxrt_status mlxrt_npy_load(mlxrt_reader *r, const mlxrt_load_request *req,
                            mlxrt_error *err) {
  unsigned char pre[12];
  mlxrt_status st = mlxrt_reader_read_exact(r, pre, 8, "npy preamble", err);
  if (st != MLXRT_OK)
    return st;
  if (memcmp(pre, "\x93NUMPY", 6) != 0)
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "%s: not an .npy file (no \\x93NUMPY magic at byte 0)",
                      r->what);
  unsigned major = pre[6], minor = pre[7];
  if (major < 1 || major > 3 || minor != 0)
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "%s: unsupported npy format version %u.%u (supported: "
                      "1.0, 2.0, 3.0)",
                      r->what, major, minor);
  size_t lenBytes = major == 1 ? 2 : 4;
  if ((st = mlxrt_reader_read_exact(r, pre + 8, lenBytes, "npy header length",
                                    err)) != MLXRT_OK)
    return st;
  uint32_t headerLen = pre[8] | (uint32_t)pre[9] << 8;
  if (lenBytes == 4)
    headerLen |= (uint32_t)pre[10] << 16 | (uint32_t)pre[11] << 24;
  if (headerLen > MAX_HEADER_BYTES)
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "%s: corrupt npy header length %" PRIu32
                      " at byte offset 8",
                      r->what, headerLen);

  char *text = malloc(headerLen ? headerLen : 1);
  if (!text)
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  uint64_t headerStart = r->pos;
  st = mlxrt_reader_read_exact(r, text, headerLen, "npy header", err);
  Header h;
  if (st == MLXRT_OK) {
    HeaderParser p = {text, headerLen, 0, headerStart, r->what, err};
    st = parseHeader(&p, &h);
  }
  free(text);
  if (st != MLXRT_OK)
    return st;

  mlxrt_dtype dtype = MLXRT_DTYPE_FLOAT32;
  if ((st = dtypeFromDescr(h.descr, r->what, &dtype, err)) != MLXRT_OK)
    return st;
  mlxrt_tensor found;
  if ((st = mlxrt_tensor_init(&found, dtype, h.rank, h.dims, err)) !=
      MLXRT_OK) {
    mlxrt_error_prefix(err, "%s: ", r->what);
    return st;
  }
  // mx.save writes 1-D and 0-D arrays (and transposed views) as Fortran
  // order; only where the two orders differ must the data move.
  bool transpose = h.fortran && !sameInBothOrders(&found);
  if ((st = mlxrt_load_payload(r, &found, req, r->what, err)) != MLXRT_OK)
    return st;

  // Extra bytes mean the header's shape does not describe the data.
  unsigned char extra;
  size_t got;
  uint64_t end = r->pos;
  st = mlxrt_reader_read(r, &extra, 1, &got, err);
  if (st == MLXRT_OK && got != 0)
    st = mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                    "%s: unexpected data after the array at byte offset "
                    "%" PRIu64 " (the header's shape does not match the "
                    "data)",
                    r->what, end);
  if (st == MLXRT_OK && transpose)
    st = fortranToC(req->out, r->what, err);
  if (st != MLXRT_OK)
    mlxrt_load_release(req);
  return st;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

static mlxrt_status writeError(const char *what, mlxrt_error *err) {
  return mlxrt_fail(err, MLXRT_ERROR_IO, "cannot write '%s': %s", what,
                    strerror(errno ? errno : EIO));
}

mlxrt_status mlxrt_npy_write(FILE *f, const char *what, const mlxrt_tensor *t,
                             mlxrt_error *err) {
  const char *descr = descrFor(t->dtype);
  if (!descr)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT, "invalid dtype %d",
                      (int)t->dtype);
  // The dict as numpy writes it (keys sorted, trailing ", ").
  char dict[512];
  int n = snprintf(dict, sizeof(dict),
                   "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
  for (int i = 0; i < t->rank; ++i)
    n += snprintf(dict + n, sizeof(dict) - (size_t)n, "%s%" PRId64,
                  i ? ", " : "", t->dims[i]);
  n += snprintf(dict + n, sizeof(dict) - (size_t)n, "%s), }",
                t->rank == 1 ? "," : "");
  // Pad with spaces so that the data starts 64-byte aligned; end with '\n'.
  size_t total = 10 + (size_t)n + 1;
  size_t padded = (total + 63) & ~(size_t)63;
  size_t headerLen = padded - 10;
  unsigned char pre[10] = {0x93,
                           'N',
                           'U',
                           'M',
                           'P',
                           'Y',
                           1,
                           0,
                           (unsigned char)(headerLen & 0xff),
                           (unsigned char)(headerLen >> 8)};
  char header[576];
  memcpy(header, dict, (size_t)n);
  memset(header + n, ' ', headerLen - (size_t)n - 1);
  header[headerLen - 1] = '\n';

  errno = 0;
  if (fwrite(pre, 1, sizeof(pre), f) != sizeof(pre) ||
      fwrite(header, 1, headerLen, f) != headerLen)
    return writeError(what, err);

  if (t->nbytes && fwrite(t->data, 1, t->nbytes, f) != t->nbytes)
    return writeError(what, err);
  return MLXRT_OK;
}

mlxrt_status mlxrt_npy_save(const char *path, const mlxrt_tensor *t,
                            mlxrt_error *err) {
  mlxrt_output o;
  mlxrt_status st = mlxrt_output_open(&o, path, err);
  if (st != MLXRT_OK)
    return st;
  st = mlxrt_npy_write(o.file, path, t, err);
  mlxrt_status closed = mlxrt_output_close(&o, st == MLXRT_OK ? err : NULL);
  if (st == MLXRT_OK && (st = closed) == MLXRT_OK)
    st = mlxrt_output_commit(&o, err);
  mlxrt_output_discard(&o);
  return st;
}
