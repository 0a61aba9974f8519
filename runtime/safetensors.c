//===- safetensors.c - Read tensors from .safetensors files ------*- C -*-===//
//
// Format: an 8-byte little-endian header length N, N bytes of JSON, then the
// data. The JSON is an object mapping tensor names to
//   {"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}
// (offsets relative to the data), plus an optional "__metadata__" object.
// The JSON reader below is complete enough to skip any value and to decode
// any string, and strict enough to reject what is not JSON; it is not a
// general JSON library.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

/// The reference implementation refuses headers above 100 MB, too.
#define MAX_HEADER_BYTES (100u << 20)
#define MAX_DEPTH 64

static const struct {
  const char *name;
  mlxrt_dtype dtype;
} SafetensorsDtypes[] = {
    {"BOOL", MLXRT_DTYPE_BOOL},     {"U8", MLXRT_DTYPE_UINT8},
    {"U16", MLXRT_DTYPE_UINT16},    {"U32", MLXRT_DTYPE_UINT32},
    {"U64", MLXRT_DTYPE_UINT64},    {"I8", MLXRT_DTYPE_INT8},
    {"I16", MLXRT_DTYPE_INT16},     {"I32", MLXRT_DTYPE_INT32},
    {"I64", MLXRT_DTYPE_INT64},     {"F16", MLXRT_DTYPE_FLOAT16},
    {"BF16", MLXRT_DTYPE_BFLOAT16}, {"F32", MLXRT_DTYPE_FLOAT32},
    {"F64", MLXRT_DTYPE_FLOAT64},   {"C64", MLXRT_DTYPE_COMPLEX64},
};

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

typedef struct {
  const char *text;
  size_t len, at;
  const char *path;
  mlxrt_error *err;
} Json;

/// Offsets in messages are file offsets: the JSON starts at byte 8.
static mlxrt_status jsonError(Json *j, const char *expected) {
  return mlxrt_fail(j->err, MLXRT_ERROR_FORMAT,
                    "%s: malformed safetensors header at byte offset %zu: "
                    "expected %s",
                    j->path, j->at + 8, expected);
}

static void jsonSpace(Json *j) {
  while (j->at < j->len && (j->text[j->at] == ' ' || j->text[j->at] == '\t' ||
                            j->text[j->at] == '\n' || j->text[j->at] == '\r'))
    ++j->at;
}

/// Consumes c (after whitespace) if it is next.
static bool jsonEat(Json *j, char c) {
  jsonSpace(j);
  if (j->at < j->len && j->text[j->at] == c) {
    ++j->at;
    return true;
  }
  return false;
}

static int hexValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/// Reads the 4 hex digits of a \u escape at j->at.
static bool readHex4(Json *j, uint32_t *out) {
  if (j->len - j->at < 4)
    return false;
  uint32_t v = 0;
  for (int i = 0; i < 4; ++i) {
    int h = hexValue(j->text[j->at + i]);
    if (h < 0)
      return false;
    v = v << 4 | (uint32_t)h;
  }
  j->at += 4;
  *out = v;
  return true;
}

/// Parses a string. With `out`, stores the decoded UTF-8 (malloc'ed,
/// NUL-terminated; *outLen excludes the NUL). The decoded form is never
/// longer than the source, so one allocation suffices.
static mlxrt_status jsonString(Json *j, char **out, size_t *outLen) {
  if (out)
    *out = NULL;
  if (!jsonEat(j, '"'))
    return jsonError(j, "a string");
  char *buf = NULL;
  size_t n = 0;
  if (out) {
    size_t end = j->at;
    while (end < j->len && j->text[end] != '"')
      end += j->text[end] == '\\' ? 2 : 1;
    if (!(buf = malloc(end - j->at + 1)))
      return mlxrt_fail(j->err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  }
#define PUT(c)                                                                 \
  do {                                                                         \
    if (buf)                                                                   \
      buf[n] = (char)(c);                                                      \
    ++n;                                                                       \
  } while (0)
  for (;;) {
    if (j->at >= j->len) {
      free(buf);
      return jsonError(j, "a closing '\"'");
    }
    unsigned char c = (unsigned char)j->text[j->at];
    if (c == '"') {
      ++j->at;
      break;
    }
    if (c < 0x20) {
      free(buf);
      return jsonError(j, "no control characters in a string");
    }
    size_t escStart = j->at++; // Escape errors point at the backslash.
    if (c != '\\') {
      PUT(c);
      continue;
    }
    char esc = j->at < j->len ? j->text[j->at++] : '\0';
    uint32_t cp;
    switch (esc) {
    case '"':
    case '\\':
    case '/':
      PUT(esc);
      continue;
    case 'b':
      PUT('\b');
      continue;
    case 'f':
      PUT('\f');
      continue;
    case 'n':
      PUT('\n');
      continue;
    case 'r':
      PUT('\r');
      continue;
    case 't':
      PUT('\t');
      continue;
    case 'u':
      if (!readHex4(j, &cp)) {
        free(buf);
        j->at = escStart;
        return jsonError(j, "4 hex digits after \\u");
      }
      if (cp >= 0xdc00 && cp <= 0xdfff) {
        free(buf);
        j->at = escStart;
        return jsonError(j, "a high surrogate before a low one");
      }
      if (cp >= 0xd800 && cp <= 0xdbff) {
        // A high surrogate must be followed by an escaped low one.
        uint32_t lo = 0;
        bool escaped = j->len - j->at >= 2 && j->text[j->at] == '\\' &&
                       j->text[j->at + 1] == 'u';
        if (escaped)
          j->at += 2;
        if (!escaped || !readHex4(j, &lo) || lo < 0xdc00 || lo > 0xdfff) {
          free(buf);
          j->at = escStart;
          return jsonError(j, "a low surrogate \\uDC00-\\uDFFF");
        }
        cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
      }
      // UTF-8 of cp is at most as long as its 6- or 12-character escape.
      if (cp < 0x80) {
        PUT(cp);
      } else if (cp < 0x800) {
        PUT(0xc0 | cp >> 6);
        PUT(0x80 | (cp & 0x3f));
      } else if (cp < 0x10000) {
        PUT(0xe0 | cp >> 12);
        PUT(0x80 | (cp >> 6 & 0x3f));
        PUT(0x80 | (cp & 0x3f));
      } else {
        PUT(0xf0 | cp >> 18);
        PUT(0x80 | (cp >> 12 & 0x3f));
        PUT(0x80 | (cp >> 6 & 0x3f));
        PUT(0x80 | (cp & 0x3f));
      }
      continue;
    default:
      free(buf);
      j->at = escStart;
      return jsonError(j, "a valid escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t "
                          "\\uXXXX)");
    }
  }
#undef PUT
  if (out) {
    buf[n] = '\0';
    *out = buf;
    *outLen = n;
  }
  return MLXRT_OK;
}

/// Parses a JSON number; with `value`, it must be a non-negative integer
/// that fits in 64 bits.
static mlxrt_status jsonNumber(Json *j, uint64_t *value) {
  jsonSpace(j);
  size_t start = j->at;
  const char *t = j->text;
  bool integer = true;
  if (j->at < j->len && t[j->at] == '-') {
    ++j->at;
    integer = false;
  }
  if (j->at >= j->len || t[j->at] < '0' || t[j->at] > '9')
    return jsonError(j, value ? "a non-negative integer" : "a value");
  if (t[j->at] == '0')
    ++j->at;
  else
    while (j->at < j->len && t[j->at] >= '0' && t[j->at] <= '9')
      ++j->at;
  size_t intEnd = j->at;
  if (j->at < j->len && t[j->at] == '.') {
    integer = false;
    ++j->at;
    if (j->at >= j->len || t[j->at] < '0' || t[j->at] > '9')
      return jsonError(j, "digits after '.'");
    while (j->at < j->len && t[j->at] >= '0' && t[j->at] <= '9')
      ++j->at;
  }
  if (j->at < j->len && (t[j->at] == 'e' || t[j->at] == 'E')) {
    integer = false;
    ++j->at;
    if (j->at < j->len && (t[j->at] == '+' || t[j->at] == '-'))
      ++j->at;
    if (j->at >= j->len || t[j->at] < '0' || t[j->at] > '9')
      return jsonError(j, "digits in the exponent");
    while (j->at < j->len && t[j->at] >= '0' && t[j->at] <= '9')
      ++j->at;
  }
  if (!value)
    return MLXRT_OK;
  if (!integer) {
    j->at = start;
    return jsonError(j, "a non-negative integer");
  }
  uint64_t v = 0;
  for (size_t i = start; i < intEnd; ++i) {
    unsigned digit = (unsigned)(t[i] - '0');
    if (v > (UINT64_MAX - digit) / 10) {
      j->at = start;
      return jsonError(j, "an integer that fits in 64 bits");
    }
    v = v * 10 + digit;
  }
  *value = v;
  return MLXRT_OK;
}

static bool jsonWord(Json *j, const char *word) {
  size_t n = strlen(word);
  if (j->len - j->at >= n && memcmp(j->text + j->at, word, n) == 0) {
    j->at += n;
    return true;
  }
  return false;
}

/// Skips any value; depth-limited so that "[[[[..." cannot exhaust the stack.
static mlxrt_status jsonSkip(Json *j, int depth) {
  mlxrt_status st;
  if (depth > MAX_DEPTH)
    return jsonError(j, "less nesting");
  jsonSpace(j);
  if (j->at >= j->len)
    return jsonError(j, "a value");
  char c = j->text[j->at];
  if (c == '"')
    return jsonString(j, NULL, NULL);
  if (c == '{' || c == '[') {
    char close = c == '{' ? '}' : ']';
    ++j->at;
    if (jsonEat(j, close))
      return MLXRT_OK;
    do {
      if (c == '{') {
        if ((st = jsonString(j, NULL, NULL)) != MLXRT_OK)
          return st;
        if (!jsonEat(j, ':'))
          return jsonError(j, "':'");
      }
      if ((st = jsonSkip(j, depth + 1)) != MLXRT_OK)
        return st;
    } while (jsonEat(j, ','));
    if (!jsonEat(j, close))
      return jsonError(j, c == '{' ? "',' or '}'" : "',' or ']'");
    return MLXRT_OK;
  }
  if (jsonWord(j, "true") || jsonWord(j, "false") || jsonWord(j, "null"))
    return MLXRT_OK;
  return jsonNumber(j, NULL);
}

/// An array of non-negative integers, at most `max` of them (more set
/// *count to max + 1 without storing them).
static mlxrt_status jsonUintArray(Json *j, uint64_t *values, size_t max,
                                  size_t *count) {
  *count = 0;
  if (!jsonEat(j, '['))
    return jsonError(j, "'['");
  if (jsonEat(j, ']'))
    return MLXRT_OK;
  do {
    uint64_t v;
    mlxrt_status st = jsonNumber(j, &v);
    if (st != MLXRT_OK)
      return st;
    if (*count < max)
      values[*count] = v;
    if (*count <= max)
      ++*count;
  } while (jsonEat(j, ','));
  if (!jsonEat(j, ']'))
    return jsonError(j, "',' or ']'");
  return MLXRT_OK;
}

//===----------------------------------------------------------------------===//
// Header
//===----------------------------------------------------------------------===//

typedef struct {
  char dtype[16];
  size_t rank; // MLXRT_MAX_RANK + 1: too many dimensions.
  uint64_t dims[MLXRT_MAX_RANK];
  uint64_t offsets[2];
} TensorInfo;

/// {"dtype": ..., "shape": [...], "data_offsets": [b, e]}; other keys are
/// skipped, as the reference implementation's parser does.
static mlxrt_status parseTensorInfo(Json *j, const char *name,
                                    TensorInfo *info) {
  bool hasDtype = false, hasShape = false, hasOffsets = false;
  mlxrt_status st;
  if (!jsonEat(j, '{'))
    return jsonError(j, "'{' (a tensor's description)");
  if (!jsonEat(j, '}')) {
    do {
      char *key;
      size_t keyLen;
      if ((st = jsonString(j, &key, &keyLen)) != MLXRT_OK)
        return st;
      if (!jsonEat(j, ':')) {
        free(key);
        return jsonError(j, "':'");
      }
      if (strcmp(key, "dtype") == 0) {
        char *dtype;
        size_t dtypeLen;
        if ((st = jsonString(j, &dtype, &dtypeLen)) == MLXRT_OK) {
          mlxrt_strlcpy(info->dtype, dtype, sizeof(info->dtype));
          free(dtype);
          hasDtype = true;
        }
      } else if (strcmp(key, "shape") == 0) {
        st = jsonUintArray(j, info->dims, MLXRT_MAX_RANK, &info->rank);
        hasShape = true;
      } else if (strcmp(key, "data_offsets") == 0) {
        size_t n;
        st = jsonUintArray(j, info->offsets, 2, &n);
        if (st == MLXRT_OK && n != 2)
          st = mlxrt_fail(j->err, MLXRT_ERROR_FORMAT,
                          "%s: tensor '%s': data_offsets must hold 2 numbers",
                          j->path, name);
        hasOffsets = true;
      } else {
        st = jsonSkip(j, 1);
      }
      free(key);
      if (st != MLXRT_OK)
        return st;
    } while (jsonEat(j, ','));
    if (!jsonEat(j, '}'))
      return jsonError(j, "',' or '}'");
  }
  if (!hasDtype || !hasShape || !hasOffsets)
    return mlxrt_fail(j->err, MLXRT_ERROR_FORMAT, "%s: tensor '%s' has no '%s'",
                      j->path, name,
                      !hasDtype   ? "dtype"
                      : !hasShape ? "shape"
                                  : "data_offsets");
  return MLXRT_OK;
}

/// Where one tensor's bytes lie in the data, for the layout check.
typedef struct {
  uint64_t begin, end;
  size_t index; // In the header, so that messages do not depend on qsort.
  char *name;
} Span;

typedef struct {
  Span *spans;
  size_t count, capacity;
} Layout;

static void freeLayout(Layout *l) {
  for (size_t i = 0; i < l->count; ++i)
    free(l->spans[i].name);
  free(l->spans);
}

static mlxrt_status addSpan(Layout *l, const TensorInfo *info, char *name,
                            mlxrt_error *err) {
  if (l->count == l->capacity) {
    size_t capacity = l->capacity ? 2 * l->capacity : 16;
    Span *spans = realloc(l->spans, capacity * sizeof(Span));
    if (!spans)
      return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
    l->spans = spans;
    l->capacity = capacity;
  }
  Span *s = &l->spans[l->count++];
  s->begin = info->offsets[0];
  s->end = info->offsets[1];
  s->index = l->count - 1;
  s->name = name;
  return MLXRT_OK;
}

static int compareSpans(const void *a, const void *b) {
  const Span *x = a, *y = b;
  if (x->begin != y->begin)
    return x->begin < y->begin ? -1 : 1;
  if (x->end != y->end)
    return x->end < y->end ? -1 : 1;
  return (x->index > y->index) - (x->index < y->index);
}

/// The rule of the reference implementation: sorted by offset, the tensors
/// tile the data exactly, from its first byte to its last. So no tensor
/// aliases another's bytes, and a truncated or padded file is refused
/// whichever tensor is read.
static mlxrt_status checkLayout(Layout *l, uint64_t dataSize, const char *path,
                                mlxrt_error *err) {
  for (size_t i = 0; i < l->count; ++i) {
    const Span *s = &l->spans[i];
    if (s->begin > s->end)
      return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                        "%s: tensor '%s': data_offsets [%" PRIu64 ", %" PRIu64
                        "] end before they begin",
                        path, s->name, s->begin, s->end);
    if (s->end > dataSize)
      return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                        "%s: tensor '%s': data_offsets [%" PRIu64 ", %" PRIu64
                        "] lie outside the %" PRIu64
                        " bytes of data (truncated file?)",
                        path, s->name, s->begin, s->end, dataSize);
  }
  if (l->count)
    qsort(l->spans, l->count, sizeof(Span), compareSpans);
  uint64_t at = 0;
  for (size_t i = 0; i < l->count; ++i) {
    const Span *s = &l->spans[i];
    if (s->begin < at) {
      const Span *p = &l->spans[i - 1];
      return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                        "%s: the data of tensors '%s' [%" PRIu64 ", %" PRIu64
                        "] and '%s' [%" PRIu64 ", %" PRIu64 "] overlap",
                        path, p->name, p->begin, p->end, s->name, s->begin,
                        s->end);
    }
    if (s->begin > at)
      return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                        "%s: no tensor holds bytes [%" PRIu64 ", %" PRIu64
                        ") of the data (the next, '%s', starts at %" PRIu64
                        "); a safetensors file's tensors fill its data "
                        "without gaps",
                        path, at, s->begin, s->name, s->begin);
    at = s->end;
  }
  if (at != dataSize)
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "%s: %" PRIu64 " bytes of data follow the last tensor's "
                      "(the tensors end at %" PRIu64 " of %" PRIu64 ")",
                      path, dataSize - at, at, dataSize);
  return MLXRT_OK;
}

/// Parses the whole header (so that a malformed one is always reported),
/// fills *info for tensor `want` (*found: whether there is one) and adds
/// every tensor to the layout.
static mlxrt_status parseHeader(Json *j, const char *want, TensorInfo *info,
                                bool *found, char *names, size_t namesSize,
                                Layout *layout) {
  mlxrt_status st;
  size_t count = 0;
  *found = false;
  if (!jsonEat(j, '{'))
    return jsonError(j, "'{' at the start of the header");
  if (!jsonEat(j, '}')) {
    do {
      char *key;
      size_t keyLen;
      if ((st = jsonString(j, &key, &keyLen)) != MLXRT_OK)
        return st;
      if (!jsonEat(j, ':')) {
        free(key);
        return jsonError(j, "':'");
      }
      if (strcmp(key, "__metadata__") == 0) {
        st = jsonSkip(j, 1);
      } else {
        TensorInfo here;
        memset(&here, 0, sizeof(here));
        st = parseTensorInfo(j, key, &here);
        bool match = keyLen == strlen(want) && strcmp(key, want) == 0;
        if (st == MLXRT_OK && match && *found)
          st = mlxrt_fail(j->err, MLXRT_ERROR_FORMAT,
                          "%s: tensor '%s' appears twice", j->path, key);
        if (st == MLXRT_OK && match) {
          *info = here;
          *found = true;
        }
        if (st == MLXRT_OK) {
          mlxrt_append_name(names, namesSize, &count, key);
          // The layout owns the name from here on.
          if ((st = addSpan(layout, &here, key, j->err)) == MLXRT_OK)
            key = NULL;
        }
      }
      free(key);
      if (st != MLXRT_OK)
        return st;
    } while (jsonEat(j, ','));
    if (!jsonEat(j, '}'))
      return jsonError(j, "',' or '}'");
  }
  // Writers pad the header with spaces to align the data.
  jsonSpace(j);
  if (j->at != j->len)
    return jsonError(j, "the end of the header after '}'");
  if (!count)
    mlxrt_strlcpy(names, "no tensors", namesSize);
  return MLXRT_OK;
}

mlxrt_status mlxrt_safetensors_load(FILE *file, uint64_t fileSize,
                                    const char *path, const char *name,
                                    const mlxrt_load_request *req,
                                    mlxrt_error *err) {
  unsigned char lenBytes[8];
  mlxrt_file_reader fr;
  mlxrt_file_reader_init(&fr, file, 0, fileSize, path);
  mlxrt_status st = mlxrt_reader_read_exact(&fr.base, lenBytes, 8,
                                            "safetensors header length", err);
  if (st != MLXRT_OK)
    return st;
  uint64_t headerLen = 0;
  for (int i = 7; i >= 0; --i)
    headerLen = headerLen << 8 | lenBytes[i];
  if (headerLen > fileSize - 8)
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "%s: truncated or not a safetensors file: header "
                      "length %" PRIu64
                      " (at byte offset 0) exceeds the %" PRIu64
                      " bytes that follow",
                      path, headerLen, fileSize - 8);
  if (headerLen > MAX_HEADER_BYTES)
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "%s: safetensors header of %" PRIu64
                      " bytes is larger than the 100 MB limit",
                      path, headerLen);

  char *text = malloc(headerLen ? (size_t)headerLen : 1);
  if (!text)
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  st = mlxrt_reader_read_exact(&fr.base, text, (size_t)headerLen,
                               "safetensors header", err);
  TensorInfo info;
  memset(&info, 0, sizeof(info));
  bool hasTensor = false;
  char names[512] = "";
  Layout layout = {NULL, 0, 0};
  uint64_t dataStart = 8 + headerLen, dataSize = fileSize - dataStart;
  if (st == MLXRT_OK) {
    Json j = {text, (size_t)headerLen, 0, path, err};
    st =
        parseHeader(&j, name, &info, &hasTensor, names, sizeof(names), &layout);
  }
  free(text);
  if (st == MLXRT_OK)
    st = checkLayout(&layout, dataSize, path, err);
  freeLayout(&layout);
  if (st != MLXRT_OK)
    return st;
  if (!hasTensor)
    return mlxrt_fail(err, MLXRT_ERROR_NOT_FOUND,
                      "%s: no tensor '%s' (the file holds %s)", path, name,
                      names);

  bool known = false;
  mlxrt_dtype dtype = MLXRT_DTYPE_FLOAT32;
  for (size_t i = 0;
       i < sizeof(SafetensorsDtypes) / sizeof(SafetensorsDtypes[0]); ++i) {
    if (strcmp(info.dtype, SafetensorsDtypes[i].name) == 0) {
      dtype = SafetensorsDtypes[i].dtype;
      known = true;
    }
  }
  if (!known)
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "%s: tensor '%s' has dtype '%s', which is not supported",
                      path, name, info.dtype);
  if (info.rank > MLXRT_MAX_RANK)
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "%s: tensor '%s' has more than %d dimensions", path, name,
                      MLXRT_MAX_RANK);
  int64_t dims[MLXRT_MAX_RANK];
  for (size_t i = 0; i < info.rank; ++i) {
    if (info.dims[i] > (uint64_t)INT64_MAX)
      return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                        "%s: tensor '%s' has a dimension that is too large",
                        path, name);
    dims[i] = (int64_t)info.dims[i];
  }
  mlxrt_tensor found;
  if ((st = mlxrt_tensor_init(&found, dtype, (int)info.rank, dims, err)) !=
      MLXRT_OK) {
    mlxrt_error_prefix(err, "%s: tensor '%s': ", path, name);
    return st;
  }

  // checkLayout has seen that [begin, end) lies in the data.
  uint64_t begin = info.offsets[0], end = info.offsets[1];
  if (end - begin != found.nbytes) {
    char type[256];
    return mlxrt_fail(err, MLXRT_ERROR_FORMAT,
                      "%s: tensor '%s': data_offsets [%" PRIu64 ", %" PRIu64
                      "] span %" PRIu64 " bytes, but %s takes %zu",
                      path, name, begin, end, end - begin,
                      mlxrt_tensor_type_str(&found, type, sizeof(type)),
                      found.nbytes);
  }
  if ((st = mlxrt_seek(file, dataStart + begin, path, err)) != MLXRT_OK)
    return st;

  size_t whatLen = strlen(path) + strlen(name) + 16;
  char *what = malloc(whatLen);
  if (!what)
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  snprintf(what, whatLen, "%s:%s", path, name);
  mlxrt_file_reader_init(&fr, file, dataStart + begin, end - begin, what);
  st = mlxrt_load_payload(&fr.base, &found, req, what, err);
  free(what);
  return st;
}
