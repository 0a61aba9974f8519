//===- signature.c - The program signature the compiler emits ----*- C -*-===//
//
// The signature is plain text, one record per line, so that it is readable
// with `strings` and needs no parser beyond this file:
//
//   entry mlp
//   input x float32 8,64
//   output out0 float32 8,10
//
//===----------------------------------------------------------------------===//

#include "internal.h"

#include <stdlib.h>
#include <string.h>

#define MAX_TOKENS 5

typedef struct {
  const char *start;
  size_t len;
} Token;

static bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\r'; }

static bool tokenIs(Token t, const char *s) {
  return t.len == strlen(s) && memcmp(t.start, s, t.len) == 0;
}

/// Splits [line, end) at blanks; returns the number of tokens, or
/// MAX_TOKENS + 1 when there are too many.
static int tokenize(const char *line, const char *end, Token *tokens) {
  int n = 0;
  const char *p = line;
  while (p < end) {
    while (p < end && isBlank(*p))
      ++p;
    if (p == end)
      break;
    const char *start = p;
    while (p < end && !isBlank(*p))
      ++p;
    if (n == MAX_TOKENS)
      return MAX_TOKENS + 1;
    tokens[n].start = start;
    tokens[n].len = (size_t)(p - start);
    ++n;
  }
  return n;
}

/// Parses "8,64" or "scalar".
static mlxrt_status parseDims(Token t, int *rank, int64_t *dims,
                              mlxrt_error *err) {
  *rank = 0;
  if (tokenIs(t, "scalar"))
    return MLXRT_OK;
  const char *p = t.start, *end = t.start + t.len;
  for (;;) {
    if (p == end || *p < '0' || *p > '9')
      return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                        "bad dims '%.*s': expected sizes like 8,64 or "
                        "'scalar'",
                        (int)t.len, t.start);
    int64_t value = 0;
    while (p < end && *p >= '0' && *p <= '9') {
      if (value > (INT64_MAX - (*p - '0')) / 10)
        return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                          "bad dims '%.*s': size too large", (int)t.len,
                          t.start);
      value = value * 10 + (*p++ - '0');
    }
    if (*rank == MLXRT_MAX_RANK)
      return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                        "bad dims '%.*s': more than %d dimensions", (int)t.len,
                        t.start, MLXRT_MAX_RANK);
    dims[(*rank)++] = value;
    if (p == end)
      return MLXRT_OK;
    if (*p++ != ',')
      return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                        "bad dims '%.*s': expected sizes like 8,64 or "
                        "'scalar'",
                        (int)t.len, t.start);
  }
}

static bool nameTaken(const mlxrt_signature *sig, Token name) {
  for (size_t i = 0; i < sig->num_inputs; ++i)
    if (tokenIs(name, sig->inputs[i].name))
      return true;
  for (size_t i = 0; i < sig->num_outputs; ++i)
    if (tokenIs(name, sig->outputs[i].name))
      return true;
  return false;
}

/// Parses "input|output <name> <dtype> <dims>" and appends the param.
static mlxrt_status parseParam(mlxrt_signature *sig, bool isInput,
                               const Token *tok, int ntok, mlxrt_error *err) {
  const char *kind = isInput ? "input" : "output";
  if (ntok != 4)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "expected '%s <name> <dtype> <dims>'", kind);
  if (nameTaken(sig, tok[1]))
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "duplicate name '%.*s'", (int)tok[1].len, tok[1].start);

  char dtypeName[16] = "";
  mlxrt_dtype dtype;
  if (tok[2].len < sizeof(dtypeName)) {
    memcpy(dtypeName, tok[2].start, tok[2].len);
    dtypeName[tok[2].len] = '\0';
  }
  if (!mlxrt_dtype_from_name(dtypeName, &dtype))
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT, "unknown dtype '%.*s'",
                      (int)tok[2].len, tok[2].start);

  int rank;
  int64_t dims[MLXRT_MAX_RANK];
  mlxrt_status st = parseDims(tok[3], &rank, dims, err);
  if (st != MLXRT_OK)
    return st;

  mlxrt_param param;
  param.cpu_in_place_of = param.cuda_in_place_of = -1;
  if ((st = mlxrt_tensor_init(&param.type, dtype, rank, dims, err)) != MLXRT_OK)
    return st;
  if (!(param.name = mlxrt_strndup(tok[1].start, tok[1].len)))
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");

  mlxrt_param **list = isInput ? &sig->inputs : &sig->outputs;
  size_t *count = isInput ? &sig->num_inputs : &sig->num_outputs;
  mlxrt_param *grown = realloc(*list, (*count + 1) * sizeof(mlxrt_param));
  if (!grown) {
    free(param.name);
    return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
  }
  grown[(*count)++] = param;
  *list = grown;
  return MLXRT_OK;
}

/// The index of the param named `name` in `params`, or -1.
static long findParam(const mlxrt_param *params, size_t count, Token name) {
  for (size_t i = 0; i < count; ++i)
    if (tokenIs(name, params[i].name))
      return (long)i;
  return -1;
}

/// The pair of output `p` in the record `cpu-in-place` or `cuda-in-place`.
static long *inPlaceSlot(mlxrt_param *p, bool cuda) {
  return cuda ? &p->cuda_in_place_of : &p->cpu_in_place_of;
}

/// Parses "cpu-in-place|cuda-in-place <output> <input>": both declared
/// before, of one type, each output and input in one pair at most (per
/// variant).
static mlxrt_status parseInPlace(mlxrt_signature *sig, const Token *tok,
                                 int ntok, mlxrt_error *err) {
  bool cuda = tokenIs(tok[0], "cuda-in-place");
  const char *record = cuda ? "cuda-in-place" : "cpu-in-place";
  if (ntok != 3)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "expected '%s <output> <input>'", record);
  long out = findParam(sig->outputs, sig->num_outputs, tok[1]);
  long in = findParam(sig->inputs, sig->num_inputs, tok[2]);
  if (out < 0 || in < 0)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "%s: no output '%.*s' or no input '%.*s'", record,
                      (int)tok[1].len, tok[1].start, (int)tok[2].len,
                      tok[2].start);
  const mlxrt_tensor *a = &sig->outputs[out].type, *b = &sig->inputs[in].type;
  bool sameType =
      a->dtype == b->dtype && a->rank == b->rank &&
      memcmp(a->dims, b->dims, sizeof(int64_t) * (size_t)a->rank) == 0;
  bool taken = *inPlaceSlot(&sig->outputs[out], cuda) >= 0;
  for (size_t k = 0; k < sig->num_outputs; ++k)
    taken |= *inPlaceSlot(&sig->outputs[k], cuda) == in;
  if (!sameType || taken)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "%s: output '%.*s' and input '%.*s' %s", record,
                      (int)tok[1].len, tok[1].start, (int)tok[2].len,
                      tok[2].start,
                      taken ? "are already paired" : "differ in type");
  *inPlaceSlot(&sig->outputs[out], cuda) = in;
  return MLXRT_OK;
}

static mlxrt_status parseLine(mlxrt_signature *sig, const char *line,
                              const char *end, mlxrt_error *err) {
  Token tok[MAX_TOKENS];
  int ntok = tokenize(line, end, tok);
  if (ntok == 0)
    return MLXRT_OK; // Blank lines are allowed.
  if (ntok > MAX_TOKENS)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT, "too many fields");
  if (tokenIs(tok[0], "entry")) {
    if (ntok != 2)
      return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                        "expected 'entry <function-name>'");
    if (sig->entry)
      return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                        "second 'entry' record");
    if (!(sig->entry = mlxrt_strndup(tok[1].start, tok[1].len)))
      return mlxrt_fail(err, MLXRT_ERROR_OUT_OF_MEMORY, "out of memory");
    return MLXRT_OK;
  }
  if (tokenIs(tok[0], "input") || tokenIs(tok[0], "output"))
    return parseParam(sig, tokenIs(tok[0], "input"), tok, ntok, err);
  if (tokenIs(tok[0], "cpu-in-place") || tokenIs(tok[0], "cuda-in-place"))
    return parseInPlace(sig, tok, ntok, err);
  return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                    "unknown record '%.*s' (expected entry, input, output, "
                    "cpu-in-place or cuda-in-place)",
                    (int)tok[0].len, tok[0].start);
}

mlxrt_status mlxrt_signature_parse(const char *text, mlxrt_signature *sig,
                                   mlxrt_error *err) {
  memset(sig, 0, sizeof(*sig));
  if (!text)
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "malformed program signature: no text");
  const char *line = text;
  for (int lineNo = 1; *line; ++lineNo) {
    const char *end = strchr(line, '\n');
    if (!end)
      end = line + strlen(line);
    mlxrt_status st = parseLine(sig, line, end, err);
    if (st != MLXRT_OK) {
      mlxrt_error_prefix(err, "malformed program signature: line %d: ", lineNo);
      mlxrt_signature_free(sig);
      return st;
    }
    line = *end ? end + 1 : end;
  }
  if (!sig->entry) {
    mlxrt_signature_free(sig);
    return mlxrt_fail(err, MLXRT_ERROR_INVALID_ARGUMENT,
                      "malformed program signature: no 'entry' record");
  }
  return MLXRT_OK;
}

void mlxrt_signature_free(mlxrt_signature *sig) {
  if (!sig)
    return;
  for (size_t i = 0; i < sig->num_inputs; ++i)
    free(sig->inputs[i].name);
  for (size_t i = 0; i < sig->num_outputs; ++i)
    free(sig->outputs[i].name);
  free(sig->inputs);
  free(sig->outputs);
  free(sig->entry);
  memset(sig, 0, sizeof(*sig));
}
