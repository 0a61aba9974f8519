"""mlx-lm language models compiled by mlxc: export, compile, generate.

    python -m mlxc.lm export MODEL -o OUT [--max-len 512] [--prefill-len 32]
        [--target cpu|cuda] [--copy-weights] [--mlxc PATH] [--mlxc-arg ARG]...
    python -m mlxc.lm generate OUT --prompt TEXT|1,2,3 [--ids] [--chat]
        [--stop S]... [--max-tokens 16] [--device auto|cpu|cuda:N]
        [--memory auto|copy]
        (MLXRT_LIBCUBLASLT: cuBLASLt's path, as for mlxc's executables)

`export` takes an mlx-lm model (a folder with config.json and
model*.safetensors, as mlx_lm.load reads it, or a model object), traces a
prefill step and a decode step with mx.export_function and compiles each
with `mlxc --emit=shared`. OUT then holds:

  prefill.mlxfn, libprefill.so  PREFILL_LEN tokens at a time (1 for a
                                model with a recurrent state)
  decode.mlxfn, libdecode.so    one token
  weights.txt                   the .safetensors files to bind, one a line,
                                relative to OUT (the model folder's own
                                files, or with --copy-weights copies or
                                hard links of them in OUT: a folder that
                                moves to another machine alone)
  caches.txt                    the cache inputs, one a line, in the order
                                of the outputs that update them

Both steps have the same interface (what generate.cpp relies on too).
Inputs, by name:
  tokens            int32 [1, T]     (T: PREFILL_LEN, or 1 for decode)
  offset            int32 []         cache slots written so far
  last              int32 []         prefill only: the row of tokens whose
                                     next token is wanted (a short final
                                     chunk is padded)
  cache.I.keys      [1, kv_heads, MAX_LEN, head_dim], per attention
  cache.I.values    layer I (KVCache, or RotatingKVCache: a window)
  cache.I.state.J   the recurrent state of a state-space or linear-
                    attention layer I (ArraysCache); zeros to start
  cache.I.J.*       sub-cache J of a layer with a CacheList
  <weight name>     every parameter, named as in the safetensors files
Outputs:
  out0              int32 [1, 1]     the greedy next token
  out1              int32 []         offset + last + 1
  out2              [1, vocab]       log-probabilities of that row
  out{3+K}          the cache named on line K of caches.txt (0-based),
                    updated (donate the input): for attention-only models
                    out{3+2I}, out{4+2I} are layer I's keys and values
so a decode step's token, offset and cache outputs are its next inputs.
"""

import argparse
import glob
import json
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np

import mlxc

try:
    import mlx.core as mx
except ImportError:  # Generation needs no MLX, only export does.
    mx = None

__all__ = ["FixedKVCache", "export", "Generator"]

STATE_OUTPUTS = 3  # out0..out2 come before the caches

# Models whose layers read another layer's cache (keys_and_values) at the
# step's own positions: gemma3n hands every layer the offset of the step and
# masks a shared cache as its owner's, so the whole fixed cache with that
# mask stands for mlx-lm's. Others may take positions from the cache's
# length (afm7), which is max_len here: refused.
SHARED_CACHE_MODELS = {"gemma3n"}


class FixedKVCache:
    """A KV cache that mx.export_function can trace, for mlx-lm's models.

    mlx-lm's KVCache grows its arrays and counts with a Python int, which a
    trace freezes. This one has a fixed length and an int32 array offset:
    update_and_fetch writes at the offset with mx.slice_update (exported as
    DynamicSliceUpdate) and returns the whole cache, and make_mask hides the
    slots not written yet and, for sliding-window layers, those that left
    the window. The models call rope(x, offset=cache.offset), which takes
    an array as well.
    """

    def __init__(self, keys, values, offset, window=None, shared=False):
        self.keys, self.values = keys, values
        self.offset = offset
        self.window = window
        self.shared = shared  # keys_and_values allowed (SHARED_CACHE_MODELS)

    def update_and_fetch(self, keys, values):
        start = mx.reshape(self.offset, (1,))
        self.keys = mx.slice_update(self.keys, keys.astype(self.keys.dtype),
                                    start, axes=(2,))
        self.values = mx.slice_update(
            self.values, values.astype(self.values.dtype), start, axes=(2,))
        self.offset = self.offset + keys.shape[2]
        return self.keys, self.values

    def keys_and_values(self):
        # Layers that read another layer's cache may take positions from its
        # length, which is max_len here, not the count of tokens: refused
        # rather than traced wrong, but for SHARED_CACHE_MODELS.
        if self.shared:
            return self.keys, self.values
        raise ValueError("the model reads a layer's cache from another layer "
                         "(keys_and_values): mlxc.lm exports shared caches "
                         "only for " + ", ".join(sorted(SHARED_CACHE_MODELS)))

    def make_mask(self, N, window_size=None, return_array=False):
        # Query i sits at position offset + i and sees slots <= its own, and
        # within the window; always an array (the slots beyond are unset).
        query = self.offset + mx.arange(N, dtype=mx.int32)[:, None]
        slot = mx.arange(self.keys.shape[2], dtype=mx.int32)[None]
        mask = slot <= query
        window = window_size or self.window
        if window:
            mask = mask & (slot > query - window)
        return mask


def _safetensors_header(path):
    """{name: (dtype, shape)} of a .safetensors file, read from its header
    alone (a model's weights may be large)."""
    with open(path, "rb") as f:
        head = f.read(8)
        if len(head) != 8:
            raise ValueError(f"{path}: not a .safetensors file")
        n, = struct.unpack("<Q", head)
        header = json.loads(f.read(n))
    return {k: (v["dtype"], tuple(v["shape"])) for k, v in header.items()
            if k != "__metadata__"}


_ST_DTYPES = {"F32": "float32", "F16": "float16", "BF16": "bfloat16",
              "F64": "float64", "I8": "int8", "I16": "int16", "I32": "int32",
              "I64": "int64", "U8": "uint8", "U16": "uint16",
              "U32": "uint32", "U64": "uint64", "BOOL": "bool"}


def _weight_files(folder, params, stage, out_dir):
    """The safetensors files that hold every parameter under its name, dtype
    and shape (a folder mlx-lm wrote), relative to out_dir. mlx-lm renames
    the tensors of some checkpoints when it loads them (sanitize); then the
    parameters as loaded go to OUT/weights.safetensors. Where it only
    changes values (a normalized head), those parameters go to
    OUT/sanitized.safetensors, bound after the model's files. New files are
    written into `stage`, which becomes out_dir's content."""
    files = sorted(glob.glob(os.path.join(folder, "model*.safetensors"))) \
        if folder else []
    found = {}
    for path in files:
        for name, (dtype, shape) in _safetensors_header(path).items():
            found[name] = (_ST_DTYPES.get(dtype, dtype), shape, path)
    if files and all(found.get(name, ())[:2] ==
                     (str(a.dtype).split(".")[-1], tuple(a.shape))
                     for name, a in params.items()):
        changed = {}
        for path in files:
            stored = mx.load(path)
            for name, a in stored.items():
                if name in params and found[name][2] == path and \
                        not mx.array_equal(a, params[name]).item():
                    changed[name] = params[name]
            del stored
        # Relative to OUT: the two folders can move together (to a server).
        relative = [os.path.relpath(p, out_dir) for p in files]
        if not changed:
            return relative
        mx.save_safetensors(os.path.join(stage, "sanitized.safetensors"),
                            changed)
        return relative + ["sanitized.safetensors"]
    mx.save_safetensors(os.path.join(stage, "weights.safetensors"), params)
    return ["weights.safetensors"]


def _load(model):
    """(model, folder or None) from a folder path or a model object."""
    if not isinstance(model, (str, os.PathLike)):
        return model, None
    from pathlib import Path
    from mlx_lm.utils import load_model
    folder = os.fspath(model)
    if not os.path.isfile(os.path.join(folder, "config.json")):
        raise FileNotFoundError(f"{folder}: no config.json (an mlx-lm model "
                                "folder has config.json and "
                                "model*.safetensors)")
    loaded, _ = load_model(Path(folder))
    return loaded, folder


def _model_type(model):
    """mlx-lm's model_type of a model object (None if it has none)."""
    for holder in (model, getattr(model, "args", None)):
        kind = getattr(holder, "model_type", None)
        if isinstance(kind, str):
            return kind
    return None


def _cache_layout(model):
    """Per layer, what its cache holds, from the cache mlx-lm itself makes
    for the model, after one (lazy) token:
      ("kv", keys shape, values shape, dtype, window)   KVCache, or a
          sliding-window RotatingKVCache (window: its length)
      ("arrays", [(shape, dtype) or None])              ArraysCache: the
          recurrent state of a state-space or linear-attention layer
      ("list", [layouts])                               CacheList"""
    from mlx_lm.models.cache import (ArraysCache, CacheList, KVCache,
                                     RotatingKVCache, make_prompt_cache)
    caches = make_prompt_cache(model)
    model(mx.zeros((1, 1), mx.int32), cache=caches)

    def describe(c, where):
        if type(c) is KVCache or (type(c) is RotatingKVCache and c.keep == 0):
            window = c.max_size if type(c) is RotatingKVCache else None
            return ("kv", c.keys.shape, c.values.shape, c.keys.dtype, window)
        if type(c) is ArraysCache:
            return ("arrays", [None if a is None else (a.shape, a.dtype)
                               for a in c.cache])
        if type(c) is CacheList:
            return ("list", [describe(sub, f"{where}.{j}")
                             for j, sub in enumerate(c.caches)])
        raise ValueError(
            f"{where} uses {type(c).__name__}: mlxc.lm exports models whose "
            "layers use KVCache, RotatingKVCache (a sliding window), "
            "ArraysCache (recurrent state) or a CacheList of them, not "
            "quantized or other caches")
    return [describe(c, f"layer {i}") for i, c in enumerate(caches)]


def _cache_names(layout, prefix="cache"):
    """The cache inputs' names, in the order of the cache outputs."""
    names = []
    for i, spec in enumerate(layout):
        p = f"{prefix}.{i}"
        if spec[0] == "kv":
            names += [f"{p}.keys", f"{p}.values"]
        elif spec[0] == "arrays":
            names += [f"{p}.state.{j}" for j, a in enumerate(spec[1]) if a]
        else:
            names += _cache_names(spec[1], p)
    return names


def _has_recurrent_state(layout):
    return any(spec[0] == "arrays" or
               (spec[0] == "list" and _has_recurrent_state(spec[1]))
               for spec in layout)


def _cache_examples(layout, max_len, prefix="cache"):
    """{name: zeros} for the cache inputs (KV caches max_len long)."""
    examples = {}
    for i, spec in enumerate(layout):
        p = f"{prefix}.{i}"
        if spec[0] == "kv":
            _, kshape, vshape, dtype, _ = spec
            examples[f"{p}.keys"] = mx.zeros(
                (kshape[0], kshape[1], max_len, kshape[3]), dtype)
            examples[f"{p}.values"] = mx.zeros(
                (vshape[0], vshape[1], max_len, vshape[3]), dtype)
        elif spec[0] == "arrays":
            for j, a in enumerate(spec[1]):
                if a:
                    examples[f"{p}.state.{j}"] = mx.zeros(*a)
        else:
            examples.update(_cache_examples(spec[1], max_len, p))
    return examples


def _make_caches(layout, kw, prefix="cache", shared=False):
    """The caches a traced step hands the model, over its inputs `kw`."""
    from mlx_lm.models.cache import ArraysCache, CacheList
    caches = []
    for i, spec in enumerate(layout):
        p = f"{prefix}.{i}"
        if spec[0] == "kv":
            caches.append(FixedKVCache(kw[f"{p}.keys"], kw[f"{p}.values"],
                                       kw["offset"], spec[4], shared))
        elif spec[0] == "arrays":
            c = ArraysCache(len(spec[1]))
            c.cache = [kw[f"{p}.state.{j}"] if a else None
                       for j, a in enumerate(spec[1])]
            caches.append(c)
        else:
            caches.append(CacheList(*_make_caches(spec[1], kw, p, shared)))
    return caches


def _cache_arrays(caches):
    """The caches' arrays after a step, in _cache_names' order."""
    from mlx_lm.models.cache import ArraysCache, CacheList
    arrays = []
    for c in caches:
        if isinstance(c, FixedKVCache):
            arrays += [c.keys, c.values]
        elif isinstance(c, ArraysCache):
            arrays += [a for a in c.cache if a is not None]
        else:
            arrays += _cache_arrays(c.caches)
    return arrays


# Where mlx-lm's models keep the layers under their output head.
_BACKBONES = ("model", "backbone", "transformer")


class _LastRowOnly:
    """Stands for a model's backbone while a prefill step is traced: its
    hidden states cut to the row `last`, so that the output head (the
    largest product of a prefill: rows x d x vocab) runs on one row, not on
    all of them. The head works row by row, so that row's values are those
    of the whole product's row."""

    def __init__(self, inner, last, rows):
        self._inner, self._last, self._rows = inner, last, rows
        self.used = False

    def __call__(self, *args, **kwargs):
        h = self._inner(*args, **kwargs)
        if not isinstance(h, mx.array) or h.ndim != 3 or \
                h.shape[:2] != (1, self._rows):
            raise _NotRows()
        self.used = True
        return mx.take(h, self._last.reshape(1), axis=1)

    def __getattr__(self, name):  # embed_tokens.as_linear, ...
        return getattr(self._inner, name)


class _NotRows(Exception):
    """The backbone gave something else than [1, rows, d] hidden states."""


def _last_row_logits(model, tokens, last, caches):
    """The logits [1, 1, vocab] of row `last`, the head run on that row
    alone; None where the model is not a backbone under a row-wise head
    (the caller then runs it whole, on fresh caches)."""
    import mlx.nn as nn
    attr = next((a for a in _BACKBONES
                 if isinstance(model.get(a), nn.Module)), None)
    if attr is None:
        return None
    stand_in = _LastRowOnly(model[attr], last, tokens.shape[1])
    # An instance attribute hides the child of that name for the model's
    # own code only: its parameters stay where they are.
    object.__setattr__(model, attr, stand_in)
    try:
        logits = model(tokens, cache=caches)
    except Exception:  # Whatever it is, the whole model says it again.
        return None
    finally:
        vars(model).pop(attr, None)
    if not stand_in.used or not isinstance(logits, mx.array) or \
            logits.ndim != 3 or logits.shape[:2] != (1, 1):
        return None
    return logits


def _trace(model, names, layout, prefill):
    """The step function for mx.export_function (all inputs by keyword)."""
    from mlx.utils import tree_unflatten
    shared = _model_type(model) in SHARED_CACHE_MODELS

    def step(**kw):
        model.update(tree_unflatten([(n, kw[n]) for n in names]))
        last = kw["last"] if prefill else mx.array(0, mx.int32)
        logits, row = None, last
        if prefill and kw["tokens"].shape[1] > 1:
            caches = _make_caches(layout, kw, shared=shared)
            logits = _last_row_logits(model, kw["tokens"], last, caches)
            row = mx.array(0, mx.int32)  # The one row left.
        if logits is None:
            # Fresh caches: a try that failed may have written its own.
            caches = _make_caches(layout, kw, shared=shared)
            logits = model(kw["tokens"], cache=caches)
            row = last
        logits = mx.take(logits, row, axis=1)
        # What mlx-lm's generate_step samples from, greedily.
        logprobs = logits - mx.logsumexp(logits, axis=-1, keepdims=True)
        token = mx.argmax(logprobs, axis=-1).astype(mx.int32).reshape(1, 1)
        outs = [token, kw["offset"] + last + 1, logprobs]
        arrays = _cache_arrays(caches)
        cache_names = _cache_names(layout)
        if len(arrays) != len(cache_names):
            raise ValueError("the model left a recurrent state unset")
        for name, a in zip(cache_names, arrays):
            if a.shape != kw[name].shape or a.dtype != kw[name].dtype:
                raise ValueError(
                    f"{name} changes in a step ({kw[name].dtype} "
                    f"{kw[name].shape} to {a.dtype} {a.shape}): mlxc.lm "
                    "exports caches of a fixed size and dtype")
        return outs + arrays
    return step


def find_mlxc(path=None):
    """mlxc: `path`, else $MLXC, else PATH, else this repository's
    build/bin/ when the package runs from the repository."""
    if path:  # named: that one or an error, never a fallback
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        raise FileNotFoundError(f"--mlxc {path}: no such executable")
    here = os.path.dirname(os.path.abspath(__file__))
    candidates = [os.environ.get("MLXC"), shutil.which("mlxc"),
                  os.path.join(here, "..", "..", "build", "bin", "mlxc")]
    for c in candidates:
        if c and os.path.isfile(c) and os.access(c, os.X_OK):
            return c
    raise FileNotFoundError("mlxc not found: pass --mlxc PATH (or set MLXC, "
                            "or put it on PATH)")


def export(model, out_dir, max_len=512, prefill_len=32, target="cpu",
           mlxc_path=None, mlxc_args=(), compile=True, copy_weights=False):
    """Exports the prefill and decode steps of an mlx-lm model (a folder or
    a model object) into out_dir and compiles them with mlxc (see the module
    doc for what they take and give). With copy_weights, the model's weight
    files are hard-linked (or, across file systems, copied) into out_dir,
    which then holds everything generation needs. Returns out_dir."""
    if mx is None:
        raise ImportError("exporting needs MLX and mlx-lm: pip install mlx-lm")
    if prefill_len < 1 or max_len < prefill_len:
        raise ValueError(f"need 1 <= prefill_len <= max_len, got prefill_len "
                         f"{prefill_len}, max_len {max_len}")
    model, folder = _load(model)
    # Everything is written into a new folder beside out_dir and moved into
    # it once complete: a refused model or a failed compile leaves out_dir
    # as it was.
    final = os.path.abspath(out_dir)
    os.makedirs(os.path.dirname(final), exist_ok=True)
    stage = tempfile.mkdtemp(prefix=".mlxc-lm-", dir=os.path.dirname(final))
    try:
        _export_into(model, folder, stage, final, max_len, prefill_len,
                     target, mlxc_path, mlxc_args, compile, copy_weights)
        _move_into(stage, final)
    finally:
        shutil.rmtree(stage, ignore_errors=True)
    return out_dir


def _cache_bytes(layout, max_len):
    """The bytes of the caches' arrays (KV caches max_len long), by their
    dtypes."""
    total = 0
    for spec in layout:
        if spec[0] == "kv":
            _, kshape, vshape, dtype, _ = spec
            total += (kshape[0] * kshape[1] * kshape[3] +
                      vshape[0] * vshape[1] * vshape[3]) * max_len * \
                dtype.size
        elif spec[0] == "arrays":
            for a in spec[1]:
                if a:
                    shape, dtype = a
                    total += math.prod(shape) * dtype.size
        else:
            total += _cache_bytes(spec[1], max_len)
    return total


def _memory_bytes():
    """This machine's physical memory, or None where it cannot be told."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def _check_cache_size(layout, max_len):
    """Refuses a --max-len whose caches cannot be held: the offset is an
    int32, and the caches stay resident for every call (generate allocated
    them and failed late)."""
    if max_len > 2**31 - 1:
        raise ValueError(f"--max-len {max_len}: above 2147483647, the "
                         "largest offset a step takes (int32)")
    need = _cache_bytes(layout, max_len)
    have = _memory_bytes()
    if have is not None and need > have:
        kinds = sorted({f"{str(s[3]).split('.')[-1]}, {s[3].size} bytes an "
                        "element" for s in _kv_specs(layout)})
        raise ValueError(
            f"--max-len {max_len}: the model's caches would take "
            f"{need / 2**30:.1f} GiB ({', '.join(kinds) or 'states'}), more "
            f"than this machine's {have / 2**30:.1f} GiB of memory")


def _kv_specs(layout):
    for spec in layout:
        if spec[0] == "kv":
            yield spec
        elif spec[0] == "list":
            yield from _kv_specs(spec[1])


def _move_into(stage, final):
    """Moves the files of `stage` into `final`: all of them or, on any
    failure, none (the files they replaced are put back)."""
    names = sorted(os.listdir(stage))
    for name in names:
        dst = os.path.join(final, name)
        if os.path.isdir(dst) and not os.path.islink(dst):
            raise OSError(f"{dst}: is a folder, not a file export may "
                          "replace")
    os.makedirs(final, exist_ok=True)
    backup = tempfile.mkdtemp(prefix=".mlxc-lm-old-",
                              dir=os.path.dirname(final))
    replaced, placed = [], []
    try:
        for name in names:
            dst = os.path.join(final, name)
            if os.path.lexists(dst):
                os.replace(dst, os.path.join(backup, name))
                replaced.append(name)
            os.replace(os.path.join(stage, name), dst)
            placed.append(name)
    except BaseException:
        for name in placed:
            try:
                os.remove(os.path.join(final, name))
            except OSError:
                pass
        for name in replaced:
            os.replace(os.path.join(backup, name), os.path.join(final, name))
        raise
    finally:
        shutil.rmtree(backup, ignore_errors=True)


def _own_copies(files, stage, final):
    """The weight files (relative to final) that lie outside it, linked or
    copied into stage under their own names: OUT then moves alone."""
    result, taken = [], set(os.listdir(stage))
    for rel in files:
        src = os.path.normpath(os.path.join(final, rel))
        if os.path.dirname(src) == os.path.normpath(final):
            result.append(rel)  # Made by export itself: already in OUT.
            continue
        name, n = os.path.basename(src), 1
        while name in taken:  # Two models' shards may share a name.
            stem, ext = os.path.splitext(os.path.basename(src))
            name, n = f"{stem}-{n}{ext}", n + 1
        taken.add(name)
        dst = os.path.join(stage, name)
        try:
            os.link(src, dst)
        except OSError:
            shutil.copyfile(src, dst)
        result.append(name)
    return result


def _export_into(model, folder, out_dir, final, max_len, prefill_len, target,
                 mlxc_path, mlxc_args, compile, copy_weights=False):
    """export's work: its files into out_dir (paths in them relative to
    final, where they go)."""
    from mlx.utils import tree_flatten, tree_unflatten
    params = dict(tree_flatten(model.parameters()))
    mx.eval(params)  # Unevaluated, they would be exported as their graph.
    layout = _cache_layout(model)
    _check_cache_size(layout, max_len)
    files = _weight_files(folder, params, out_dir, final)
    if folder is not None:
        # Small files: copied, so that the output folder generates text.
        from .lm_text import TOKENIZER_FILES
        for name in TOKENIZER_FILES:
            if os.path.isfile(os.path.join(folder, name)):
                shutil.copyfile(os.path.join(folder, name),
                                os.path.join(out_dir, name))
    if copy_weights:
        files = _own_copies(files, out_dir, final)
    with open(os.path.join(out_dir, "weights.txt"), "w") as f:
        f.write("".join(p + "\n" for p in files))

    # A recurrent state would take in a padded chunk's padding: such models
    # read their prompt one token a call.
    if _has_recurrent_state(layout):
        prefill_len = 1
    with open(os.path.join(out_dir, "caches.txt"), "w") as f:
        f.write("".join(n + "\n" for n in _cache_names(layout)))
    args = dict(params, offset=mx.array(0, mx.int32),
                **_cache_examples(layout, max_len))
    steps = {"prefill": dict(args, tokens=mx.zeros((1, prefill_len), mx.int32),
                             last=mx.array(0, mx.int32)),
             "decode": dict(args, tokens=mx.zeros((1, 1), mx.int32))}
    mlxc_exe = find_mlxc(mlxc_path) if compile else None
    # mx.contiguous only rearranges memory, and MLX cannot serialize it
    # (linear-attention layers call it on their state): traced as its input.
    contiguous = mx.contiguous
    try:
        mx.contiguous = lambda a, *args, **kwargs: a
        for name, example in steps.items():
            path = os.path.join(out_dir, name + ".mlxfn")
            # The inputs as one dictionary, not as keyword arguments:
            # a call takes at most 1024 of those, and a quantized model of
            # 40 layers has more tensors.
            mx.export_function(path, _trace(model, list(params), layout,
                                            name == "prefill"), (), example)
    finally:
        mx.contiguous = contiguous
        model.update(tree_unflatten(list(params.items())))
    if compile:
        for name in steps:
            # The weights stay bound across calls: on CUDA they belong in
            # device memory, not streamed from host memory by every call.
            stream = ["--no-stream-io"] if target == "cuda" else []
            cmd = [mlxc_exe, os.path.join(out_dir, name + ".mlxfn"),
                   "--emit=shared", f"--target={target}", *stream,
                   "-o", os.path.join(out_dir, f"lib{name}.so"),
                   *mlxc_args]
            run = subprocess.run(cmd)
            if run.returncode != 0:
                raise RuntimeError(f"mlxc failed on {name}.mlxfn (exit "
                                   f"{run.returncode}): {' '.join(cmd)}")


class Generator:
    """Greedy generation with the two compiled steps of `export`: weights
    bound once and shared by both, the cache, the token and the offset kept
    in the runtime and donated to each call (updated in place, on the
    device), only the new token read back."""

    def __init__(self, out_dir, device="auto", memory="auto", runtime=None,
                 libcublaslt=None):
        def path(name):
            p = os.path.join(out_dir, name)
            if not os.path.exists(p):
                raise FileNotFoundError(f"{p}: missing (made by python -m "
                                        "mlxc.lm export)")
            return p
        prefill_so, decode_so = path("libprefill.so"), path("libdecode.so")
        with open(path("weights.txt")) as f:
            files = [os.path.join(out_dir, line.strip()) for line in f
                     if line.strip()]
        self.rt = mlxc.Instance(device=device, memory=memory, runtime=runtime,
                                libcublaslt=libcublaslt)
        self.prefill = self.rt.load(prefill_so)
        self.decode = self.rt.load(decode_so)
        for file in files:
            for name in self.decode.bind_file(file):
                self.prefill.bind(**{name: self.decode.bound[name]})
        inputs = {n: (d, s) for n, d, s in self.decode.inputs}
        # The cache inputs, in the order of the outputs that update them.
        with open(path("caches.txt")) as f:
            self.caches = [line.strip() for line in f if line.strip()]
        for name in self.caches:
            if name not in inputs:
                raise ValueError(f"{out_dir}/caches.txt names '{name}', "
                                 "which libdecode.so does not take")
        self.prefill_len = dict((n, s) for n, _, s in
                                self.prefill.inputs)["tokens"][1]
        # Attention caches bound the length; recurrent states do not.
        keys = [n for n in self.caches if n.endswith(".keys")]
        self.max_len = inputs[keys[0]][1][2] if keys else None
        # The log-probabilities (out2) span the vocabulary.
        self.vocab_size = dict((n, s) for n, _, s in
                               self.decode.outputs)["out2"][-1]
        self._inputs = inputs

    def _outputs(self, state):
        """The output slots: token, offset and caches, donated."""
        outs = {"out0": state["tokens"], "out1": state["offset"]}
        for k, name in enumerate(self.caches):
            outs[f"out{STATE_OUTPUTS + k}"] = state[name]
        return outs

    def generate(self, prompt, max_tokens):
        """The `max_tokens` greedy tokens after `prompt` (token ids)."""
        return list(self.stream(prompt, max_tokens))

    def stream(self, prompt, max_tokens):
        """The greedy tokens after `prompt` (token ids), one at a time, at
        most `max_tokens`: stopping early (an EOS token, a stop string)
        costs at most the one step already enqueued."""
        prompt = [int(t) for t in prompt]
        P = self.prefill_len
        padded = -(-len(prompt) // P) * P
        if not prompt or max_tokens < 1:
            raise ValueError("need a non-empty prompt and max_tokens >= 1")
        bad = [t for t in prompt if not 0 <= t < self.vocab_size]
        if bad:
            # An embedding row past the table would be read.
            raise ValueError(f"prompt token {bad[0]} is not in the model's "
                             f"vocabulary (ids 0..{self.vocab_size - 1})")
        if self.max_len is not None and \
                max(padded, len(prompt) + max_tokens - 1) > self.max_len:
            raise ValueError(
                f"{len(prompt)} prompt tokens (padded to {padded}) and "
                f"{max_tokens} new ones do not fit the cache of "
                f"{self.max_len} (export with a larger --max-len)")
        state = {n: self.decode.zeros(n)
                 for n in self.caches + ["tokens", "offset"]}
        outs = self._outputs(state)
        for start in range(0, len(prompt), P):
            chunk = prompt[start:start + P]
            tokens = np.zeros((1, P), np.int32)
            tokens[0, :len(chunk)] = chunk
            self.prefill.call(tokens=tokens,
                              last=np.array(len(chunk) - 1, np.int32),
                              offset=state["offset"], outputs=outs,
                              **{n: state[n] for n in self.caches})
        yield int(state["tokens"].numpy()[0, 0])
        # Step k reads its token from one array and writes the next into the
        # other; step k + 1 is enqueued before the token of step k is read
        # (which waits for step k only), so the GPU does not wait for Python.
        turn = [state["tokens"], self.decode.zeros("tokens")]

        def enqueue(k):
            self.decode.call(outputs=dict(outs, out0=turn[(k + 1) % 2]),
                             **dict(state, tokens=turn[k % 2]))

        steps = max_tokens - 1
        if steps:
            enqueue(0)
        for k in range(steps):
            if k + 1 < steps:
                enqueue(k + 1)
            yield int(turn[(k + 1) % 2].numpy()[0, 0])

    def generate_text(self, tokenizer, prompt, max_tokens, chat=False,
                      stop=()):
        """Streams the text after `prompt` (text, or chat messages), as
        (piece, token) pairs; see lm_text.stream_text."""
        from . import lm_text
        ids = tokenizer.encode(prompt, chat=chat)
        return lm_text.stream_text(tokenizer, self.stream(ids, max_tokens),
                                   stop)


def _token_list(text):
    try:
        return [int(t) for t in text.replace(",", " ").split()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected token ids like 1,2,3, got '{text}'")


def _summary(out_dir, compiled):
    """What export wrote into out_dir, and the command that comes next."""
    def lines(name):
        with open(os.path.join(out_dir, name)) as f:
            return [line.strip() for line in f if line.strip()]
    weights, caches = lines("weights.txt"), lines("caches.txt")
    outside = any(os.path.isabs(w) or w.startswith("..") for w in weights)
    steps = "libprefill.so, libdecode.so" if compiled else \
        "prefill.mlxfn, decode.mlxfn (not compiled)"
    text = [f"wrote {out_dir}:",
            f"  {steps}  the prefill and decode steps",
            f"  weights.txt  binds {', '.join(weights)}" +
            (" (outside the folder: --copy-weights makes it self-contained)"
             if outside else ""),
            f"  caches.txt   {len(caches)} cache arrays"]
    if compiled:
        text.append(f"next: python -m mlxc.lm generate {out_dir} "
                    "--prompt 1,2,3 -n 16")
    return "\n".join(text)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m mlxc.lm",
                                     description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    ex = sub.add_parser("export", help="export and compile an mlx-lm model")
    ex.add_argument("model", help="mlx-lm model folder (config.json, "
                    "model*.safetensors)")
    ex.add_argument("-o", "--output", required=True, help="output folder")
    ex.add_argument("--max-len", type=int, default=512,
                    help="cache length: prompt and generated tokens "
                    "(default: %(default)s)")
    ex.add_argument("--prefill-len", type=int, default=32,
                    help="prompt tokens per prefill call (default: "
                    "%(default)s; 1 for a model with a recurrent state)")
    ex.add_argument("--target", default="cpu", choices=["cpu", "cuda"],
                    help="the code the steps hold (default: %(default)s)")
    ex.add_argument("--copy-weights", action="store_true",
                    help="hard-link (or copy) the model's weight files into "
                    "the output folder, so that it moves alone")
    ex.add_argument("--mlxc", help="the mlxc executable (default: $MLXC, "
                    "PATH, this repository's build/bin/mlxc)")
    ex.add_argument("--mlxc-arg", action="append", default=[],
                    help="an extra mlxc argument (repeatable)")
    ex.add_argument("--no-compile", action="store_true",
                    help="write the .mlxfn files only")
    gen = sub.add_parser("generate", help="greedy tokens from a compiled model")
    gen.add_argument("model", help="the folder export wrote")
    gen.add_argument("--prompt", required=True,
                     help="the prompt: text (through the folder's "
                     "tokenizer), or token ids with --ids")
    gen.add_argument("--ids", action="store_true", help="--prompt is token "
                     "ids (1,2,3) and the ids are printed (the default when "
                     "the prompt is ids and the folder has no tokenizer)")
    gen.add_argument("--chat", action="store_true", help="the prompt is a "
                     "user message, through the tokenizer's chat template")
    gen.add_argument("--stop", action="append", default=[],
                     help="a stop string (repeatable): the text ends before "
                     "it")
    gen.add_argument("-n", "--max-tokens", type=int, default=16,
                     help="tokens to generate (default: %(default)s)")
    gen.add_argument("--device", default="auto", help="auto, cpu, cuda or "
                     "cuda:N (default: %(default)s: a GPU, else the CPU)")
    gen.add_argument("--memory", default="auto", choices=["auto", "copy"],
                     help="unified memory where the GPU has it, or copies "
                     "(default: %(default)s)")
    sv = sub.add_parser("serve", help="an OpenAI-compatible server")
    sv.add_argument("model", help="the folder export wrote")
    sv.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default: %(default)s)")
    sv.add_argument("--port", type=int, default=8080,
                    help="port (default: %(default)s)")
    sv.add_argument("--max-batch", type=int, default=8,
                    help="requests generating at once (default: "
                    "%(default)s)")
    sv.add_argument("--max-queue", type=int, default=64,
                    help="requests waiting for a slot before a 429 "
                    "(default: %(default)s)")
    sv.add_argument("--device", default="auto", help="auto, cpu, cuda or "
                    "cuda:N (default: %(default)s)")
    sv.add_argument("--memory", default="auto", choices=["auto", "copy"])
    args = parser.parse_args(argv)
    try:
        if args.command == "serve":
            from . import lm_serve
            if args.max_batch < 1 or args.max_queue < 0:
                raise ValueError("--max-batch must be >= 1, --max-queue >= 0")
            lm_serve.serve(args.model, host=args.host, port=args.port,
                           max_batch=args.max_batch,
                           max_queue=args.max_queue, device=args.device,
                           memory=args.memory,
                           libcublaslt=os.environ.get("MLXRT_LIBCUBLASLT"))
        elif args.command == "export":
            export(args.model, args.output, max_len=args.max_len,
                   prefill_len=args.prefill_len, target=args.target,
                   mlxc_path=args.mlxc, mlxc_args=args.mlxc_arg,
                   compile=not args.no_compile,
                   copy_weights=args.copy_weights)
            print(_summary(args.output, not args.no_compile))
        else:
            # As mlxc's executables, the command (not the library) reads
            # MLXRT_LIBCUBLASLT.
            from . import lm_text
            ids = args.ids
            if not ids and not args.chat and \
                    not lm_text.has_tokenizer(args.model):
                try:  # As before the tokenizer: ids in, ids out.
                    _token_list(args.prompt)
                    ids = True
                except argparse.ArgumentTypeError:
                    pass
            if ids and (args.chat or args.stop):
                raise ValueError("--chat and --stop need a text prompt")
            prompt = _token_list(args.prompt) if ids else None
            tokenizer = None if ids else lm_text.Tokenizer(args.model)
            # As mlxc's executables, the command (not the library) reads
            # MLXRT_LIBCUBLASLT.
            gen = Generator(args.model, device=args.device,
                            memory=args.memory,
                            libcublaslt=os.environ.get("MLXRT_LIBCUBLASLT"))
            if ids:
                tokens = gen.generate(prompt, args.max_tokens)
                print(" ".join(map(str, tokens)))
            else:
                for piece, _ in gen.generate_text(
                        tokenizer, args.prompt, args.max_tokens,
                        chat=args.chat, stop=args.stop):
                    sys.stdout.write(piece)
                    sys.stdout.flush()
                sys.stdout.write("\n")
        return 0
    except argparse.ArgumentTypeError as e:
        print(f"error: --prompt: {e}", file=sys.stderr)
        return 1
    except (mlxc.Error, OSError, ImportError, ValueError, RuntimeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # From the model's own code, traced: named.
        print(f"error: {type(e).__name__}: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
