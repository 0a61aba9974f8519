"""Load models compiled by mlxc and call them from Python.

A thin ctypes layer over the runtime's C API (runtime/mlxrt_api.h):

    rt = mlxc.Instance(device="cpu")           # "auto", "cpu", "cuda", "cuda:N"
    model = rt.load("libmodel.so")             # mlxc ... --emit=shared
    model.bind_file("weights.safetensors")     # inputs named like its tensors
    y = model(x)                               # numpy arrays in and out

Arrays can also stay in the runtime (on the device) between calls:

    state = rt.array(np.zeros((3, 4), np.float32))
    y, = model.call(x, state, outputs={"state_out": state})  # state donated

Threads: an instance, its models and its arrays may be used from several
threads; their calls into the runtime take turns (one lock per instance),
so they are safe but not parallel. For calls that run at once, use one
instance per thread.

Values: numpy and MLX arrays must have the dtype and shape expected, as the
C API wants them. Python lists and scalars are converted to the expected
dtype only when no value changes kind or range: strings, complex numbers
into a real array, fractions into integers and numbers beyond the dtype's
range (1e300 into float32) are an mlxc.Error.
"""

import ctypes
import ctypes.util
import os
import threading

import numpy as np

__all__ = ["Array", "Error", "Instance", "Model", "load_runtime"]

MAX_RANK = 8

# mlxrt_dtype, in the order of runtime/mlxrt.h.
_DTYPES = ["bool", "uint8", "uint16", "uint32", "uint64", "int8", "int16",
           "int32", "int64", "float16", "bfloat16", "float32", "float64",
           "complex64"]


try:
    import ml_dtypes
    _BF16 = np.dtype(ml_dtypes.bfloat16)
except ImportError:
    _BF16 = None  # numpy has no bfloat16 of its own.


def _numpy_dtype(name):
    """The numpy dtype of an MLX dtype's values. bfloat16 is ml_dtypes'
    where installed, else float32, which holds every bfloat16 value
    exactly (raw uint16 bits would read as nonsense numbers)."""
    if name == "bfloat16":
        return _BF16 if _BF16 is not None else np.dtype(np.float32)
    return np.dtype(name)


def _bfloat16_bits(a, what):
    """The uint16 bits of bfloat16 values given as ml_dtypes' bfloat16, as
    bits (uint16), or as float32 values that bfloat16 holds exactly (what
    numpy() gives without ml_dtypes); None for anything else. Other float32
    values are an Error: rounding them is the caller's choice."""
    if _BF16 is not None and a.dtype == _BF16:
        return a.view(np.uint16)
    if a.dtype == np.uint16:
        return a
    if a.dtype == np.float32:
        wide = np.ascontiguousarray(a).view(np.uint32)
        if np.any(wide & 0xFFFF):
            raise Error("type mismatch", f"{what}: expected bfloat16 "
                        f"{list(a.shape)}, got float32 values that bfloat16 "
                        "does not hold exactly (round them first, e.g. "
                        "with MLX or ml_dtypes)")
        return (wide >> 16).astype(np.uint16)
    return None


class Error(RuntimeError):
    """A failed runtime call; `status` is the mlxrt_status name."""

    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class _Err(ctypes.Structure):
    _fields_ = [("message", ctypes.c_char * 2048)]


class _Tensor(ctypes.Structure):
    _fields_ = [("dtype", ctypes.c_int), ("rank", ctypes.c_int),
                ("dims", ctypes.c_int64 * MAX_RANK),
                ("data", ctypes.c_void_p), ("nbytes", ctypes.c_size_t)]


class _Param(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("type", _Tensor),
                ("cpu_in_place_of", ctypes.c_long),
                ("cuda_in_place_of", ctypes.c_long)]


class _Signature(ctypes.Structure):
    _fields_ = [("entry", ctypes.c_char_p), ("num_inputs", ctypes.c_size_t),
                ("num_outputs", ctypes.c_size_t),
                ("inputs", ctypes.POINTER(_Param)),
                ("outputs", ctypes.POINTER(_Param))]


class _TraceEvent(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int), ("ms", ctypes.c_double),
                ("text", ctypes.c_char_p), ("bytes", ctypes.c_size_t)]


_TRACE_FN = ctypes.CFUNCTYPE(None, ctypes.c_void_p,
                             ctypes.POINTER(_TraceEvent))
_TRACE_KINDS = ["inputs_placed", "program", "outputs_placed", "note",
                "to_device", "to_host"]


class _Options(ctypes.Structure):
    _fields_ = [("device", ctypes.c_char_p), ("memory", ctypes.c_int),
                ("no_cuda_graphs", ctypes.c_int),
                ("libcuda", ctypes.c_char_p),
                ("libcublaslt", ctypes.c_char_p),
                ("cuda_home", ctypes.c_char_p),
                ("trace", _TRACE_FN), ("trace_user", ctypes.c_void_p),
                ("no_warm_up", ctypes.c_int)]


_lib = None


def load_runtime(path=None):
    """Loads libmlxrt.so once per process: `path`, else $MLXC_RUNTIME, else
    what the loader finds. Loaded globally, as the CUDA code of the models
    calls into it."""
    global _lib
    if _lib is not None:
        return _lib
    candidates = [path, os.environ.get("MLXC_RUNTIME"),
                  os.path.join(os.path.dirname(__file__), "libmlxrt.so"),
                  ctypes.util.find_library("mlxrt"), "libmlxrt.so"]
    errors = []
    for candidate in candidates:
        if not candidate:
            continue
        if os.sep in candidate and not os.path.exists(candidate):
            continue
        try:
            lib = ctypes.CDLL(candidate, mode=ctypes.RTLD_GLOBAL)
            break
        except OSError as e:
            errors.append(str(e))
    else:
        raise OSError("cannot load the mlxc runtime (libmlxrt.so): set "
                      "MLXC_RUNTIME to its path" +
                      (" (" + "; ".join(errors) + ")" if errors else ""))
    p, i, sz = ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t
    err = ctypes.POINTER(_Err)
    sigs = {
        "mlxrt_status_name": (ctypes.c_char_p, [i]),
        "mlxrt_version": (ctypes.c_char_p, []),
        "mlxrt_instance_options_init": (None, [ctypes.POINTER(_Options)]),
        "mlxrt_instance_create": (i, [ctypes.POINTER(_Options),
                                      ctypes.POINTER(p), err]),
        "mlxrt_instance_destroy": (None, [p]),
        "mlxrt_instance_device_kind": (i, [p]),
        "mlxrt_instance_device_name": (ctypes.c_char_p, [p]),
        "mlxrt_instance_synchronize": (i, [p, err]),
        "mlxrt_model_load": (i, [p, ctypes.c_char_p, ctypes.POINTER(p), err]),
        "mlxrt_model_close": (None, [p]),
        "mlxrt_model_name": (ctypes.c_char_p, [p]),
        "mlxrt_model_signature": (ctypes.POINTER(_Signature), [p]),
        "mlxrt_model_has_cuda": (i, [p]),
        "mlxrt_model_bind_file": (i, [p, ctypes.c_char_p, ctypes.POINTER(p),
                                      sz, ctypes.POINTER(sz), err]),
        "mlxrt_model_load_input": (i, [p, sz, ctypes.c_char_p,
                                       ctypes.POINTER(p), err]),
        "mlxrt_model_call": (i, [p, ctypes.POINTER(p), sz, ctypes.POINTER(p),
                                 sz, err]),
        "mlxrt_array_create": (i, [p, i, i, ctypes.POINTER(ctypes.c_int64), p,
                                   sz, ctypes.POINTER(p), err]),
        "mlxrt_array_load": (i, [p, ctypes.c_char_p, ctypes.POINTER(p), err]),
        "mlxrt_array_release": (None, [p]),
        "mlxrt_array_type": (ctypes.POINTER(_Tensor), [p]),
        "mlxrt_array_read": (i, [p, p, sz, err]),
        "mlxrt_array_write": (i, [p, p, sz, err]),
        "mlxrt_array_save": (i, [p, ctypes.c_char_p, err]),
    }
    for name, (restype, argtypes) in sigs.items():
        fn = getattr(lib, name)
        fn.restype = restype
        fn.argtypes = argtypes
    _lib = lib
    return lib


def _check(status, err):
    if status != 0:
        name = _lib.mlxrt_status_name(status).decode()
        raise Error(name, err.message.decode(errors="replace"))


def _type_of(tensor):
    dtype = _numpy_dtype(_DTYPES[tensor.dtype])
    return dtype, tuple(tensor.dims[k] for k in range(tensor.rank))


class Array:
    """An array held by the runtime (on the instance's device)."""

    def __init__(self, instance, handle):
        self._instance = instance
        self._handle = handle
        t = _lib.mlxrt_array_type(handle).contents
        self._dtype, self._shape = _type_of(t)
        self._nbytes = t.nbytes
        # bfloat16 read as float32 (no ml_dtypes): widened from its bits.
        self._widen = _DTYPES[t.dtype] == "bfloat16" and _BF16 is None

    def __del__(self):
        if getattr(self, "_handle", None) and _lib is not None:
            with self._instance._lock:
                _lib.mlxrt_array_release(self._handle)
            self._handle = None

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return self._shape

    def numpy(self):
        """A copy on the host (bfloat16: ml_dtypes' bfloat16, else float32
        with the same values)."""
        out = np.empty(self._shape, np.uint16 if self._widen else self._dtype)
        err = _Err()
        with self._instance._lock:
            status = _lib.mlxrt_array_read(self._handle, out.ctypes.data,
                                           self._nbytes, ctypes.byref(err))
        _check(status, err)
        if self._widen:
            return (out.astype(np.uint32) << 16).view(np.float32)
        return out

    def __array__(self, dtype=None, copy=None):
        a = self.numpy()
        return a if dtype is None else a.astype(dtype)

    def write(self, value):
        """Overwrites the array from host data of its dtype and shape (the
        rules of a call's inputs: see the module doc)."""
        dtype, shape = self._dtype, self._shape
        a = _from_python(value, dtype, "Array.write")
        if self._widen or dtype == _BF16:
            bits = _bfloat16_bits(a, "Array.write")
            if bits is not None:
                a, dtype = bits, np.dtype(np.uint16)
        if a.dtype != dtype or a.shape != shape:
            raise Error("type mismatch", f"Array.write: expected {dtype} "
                        f"{list(shape)}, got {a.dtype} {list(a.shape)}")
        a = _contiguous(a)
        err = _Err()
        with self._instance._lock:
            status = _lib.mlxrt_array_write(self._handle, a.ctypes.data,
                                            a.nbytes, ctypes.byref(err))
        _check(status, err)

    def save(self, path):
        """Writes a .npy file."""
        err = _Err()
        with self._instance._lock:
            status = _lib.mlxrt_array_save(self._handle, os.fsencode(path),
                                           ctypes.byref(err))
        _check(status, err)

    def __repr__(self):
        return f"mlxc.Array({self.dtype}, {self.shape})"


def _mlx_bfloat16_bits(value):
    """An MLX bfloat16 array's bits as numpy's bfloat16 (ml_dtypes) or
    uint16: numpy reads neither its buffer nor its DLPack capsule."""
    if not type(value).__module__.startswith("mlx") or \
            str(getattr(value, "dtype", "")) != "mlx.core.bfloat16":
        return None
    import mlx.core as mx
    bits = np.asarray(value.view(mx.uint16))
    return bits.view(_BF16) if _BF16 is not None else bits


def _as_numpy(value):
    """numpy's view of anything: arrays, MLX arrays (buffer protocol),
    DLPack producers, lists."""
    if isinstance(value, np.ndarray):
        return value
    bits = _mlx_bfloat16_bits(value)
    if bits is not None:
        return bits
    try:
        return np.asarray(value)
    except (TypeError, ValueError, RuntimeError):
        if hasattr(value, "__dlpack__"):
            return np.from_dlpack(value)
        raise


def _from_python(value, dtype, what):
    """`value` as a numpy array of `dtype`: numpy and MLX arrays as they are
    (their dtype must be `dtype`), Python lists and scalars converted when
    every value survives the conversion."""
    typed = isinstance(value, np.ndarray) or hasattr(value, "dtype")
    try:
        a = _as_numpy(value)
    except (TypeError, ValueError, RuntimeError) as e:
        raise Error("invalid argument", f"{what}: not an array ({e})")
    if a.dtype == dtype or typed:
        return a
    if a.dtype.kind not in "biufc":
        raise Error("type mismatch", f"{what}: expected {dtype} values, got "
                    f"{a.dtype} (strings or objects)")
    if a.dtype.kind == "c" and dtype.kind != "c":
        raise Error("type mismatch", f"{what}: complex values for a {dtype} "
                    "array")
    with np.errstate(all="ignore"):
        b = a.astype(dtype)
        if dtype.kind in "biu":
            # Into integers (or bool): exactly, no fraction, no wrap-around.
            kept = np.array_equal(b.astype(a.dtype), a)
        else:
            # Into floats: rounded, but a finite value stays finite.
            kept = np.array_equal(np.isfinite(b.astype(np.complex128)
                                              if dtype.kind == "c" else
                                              b.astype(np.float64)),
                                  np.isfinite(a))
    if not kept:
        raise Error("type mismatch", f"{what}: a value does not fit {dtype} "
                    "(out of range, or not a whole number)")
    return b


def _contiguous(a, dtype=None):
    """Row-major; unlike np.ascontiguousarray, a scalar stays rank 0."""
    return np.require(a, dtype, "C")


class Model:
    """A compiled model opened on an instance."""

    def __init__(self, instance, handle):
        self._instance = instance
        self._handle = handle
        sig = _lib.mlxrt_model_signature(handle).contents

        def params(ptr, n):
            out = []
            for k in range(n):
                dtype, shape = _type_of(ptr[k].type)
                out.append((ptr[k].name.decode(), dtype, shape))
            return out
        #: [(name, numpy dtype, shape)] of the inputs and outputs.
        self.inputs = params(sig.inputs, sig.num_inputs)
        # MLX's dtype names (numpy's may be float32 for bfloat16).
        self._input_dtypes = {sig.inputs[k].name.decode():
                              _DTYPES[sig.inputs[k].type.dtype]
                              for k in range(sig.num_inputs)}
        self.outputs = params(sig.outputs, sig.num_outputs)
        self.name = _lib.mlxrt_model_name(handle).decode()
        self.has_cuda = bool(_lib.mlxrt_model_has_cuda(handle))
        self._bound = {}

    def __del__(self):
        if getattr(self, "_handle", None) and _lib is not None:
            with self._instance._lock:
                _lib.mlxrt_model_close(self._handle)
            self._handle = None

    def bind_file(self, path):
        """Makes arrays of the tensors of a .safetensors or .npz file named as
        inputs (e.g. the weights mx.save_safetensors wrote) and binds them to
        those inputs for every later call. Returns their names; a file
        that binds none of the inputs not bound yet is an Error naming the
        file's tensors and those inputs."""
        n = len(self.inputs)
        slots = (ctypes.c_void_p * n)()
        bound, err = ctypes.c_size_t(), _Err()
        with self._instance._lock:
            status = _lib.mlxrt_model_bind_file(
                self._handle, os.fsencode(path), slots, n,
                ctypes.byref(bound), ctypes.byref(err))
        _check(status, err)
        names = []
        for k in range(n):
            if slots[k]:
                name = self.inputs[k][0]
                self._bound[name] = Array(self._instance, slots[k])
                names.append(name)
        return names

    def load_input(self, name, spec):
        """A new array for input `name`, read from "FILE.npy",
        "FILE.npz[:ENTRY]" or "FILE.safetensors[:TENSOR]" (ENTRY and TENSOR
        default to the name) with the input's dtype and shape, as mlxc's
        executables read --input (float32 data for a bfloat16 input is
        rounded)."""
        names = [p[0] for p in self.inputs]
        if name not in names:
            raise Error("invalid argument", f"model '{self.name}' has no "
                        f"input '{name}' (inputs: {', '.join(names)})")
        handle, err = ctypes.c_void_p(), _Err()
        with self._instance._lock:
            _check(_lib.mlxrt_model_load_input(
                self._handle, names.index(name), os.fsencode(spec),
                ctypes.byref(handle), ctypes.byref(err)), err)
            return Array(self._instance, handle.value)

    def bind(self, **arrays):
        """Binds inputs by name to values (kept in the runtime) for every
        later call. An mlxc.Array is bound as it is, not copied: two models
        can share one (the weights of a prefill and a decode step)."""
        names = [p[0] for p in self.inputs]
        for name, value in arrays.items():
            if name not in names:
                raise Error("invalid argument", f"model '{self.name}' has no "
                            f"input '{name}' (inputs: {', '.join(names)})")
            _, dtype, shape = self.inputs[names.index(name)]
            self._bound[name] = self._as_input(name, dtype, shape, value)

    def zeros(self, name):
        """A new array of zeros with the dtype and shape of input `name` (the
        initial state of a decode step: its cache)."""
        sig = _lib.mlxrt_model_signature(self._handle).contents
        for k in range(sig.num_inputs):
            if sig.inputs[k].name.decode() == name:
                t = sig.inputs[k].type
                return self._instance._zeros(
                    t.dtype, [t.dims[d] for d in range(t.rank)])
        raise Error("invalid argument",
                    f"model '{self.name}' has no input '{name}'")

    @property
    def bound(self):
        """{name: mlxc.Array} of the inputs bound so far."""
        return dict(self._bound)

    def _inputs(self, args, kwargs):
        names = [p[0] for p in self.inputs]
        for name in kwargs:
            if name not in names:
                raise Error("invalid argument", f"model '{self.name}' has no "
                            f"input '{name}' (inputs: {', '.join(names)})")
        values, positional = [], list(args)
        for name in names:
            if name in kwargs:
                values.append(kwargs[name])
            elif name in self._bound:
                values.append(self._bound[name])
            elif positional:
                values.append(positional.pop(0))
            else:
                raise Error("invalid argument",
                            f"model '{self.name}': input '{name}' is missing")
        if positional:
            raise Error("invalid argument", f"model '{self.name}': "
                        f"{len(positional)} positional inputs too many "
                        f"(an input given by name or bound takes none)")
        # Arrays go as they are: mlxrt_model_call checks them (bound weights
        # every call, so not twice here).
        return [value if isinstance(value, Array) else
                self._as_input(name, dtype, shape, value)
                for (name, dtype, shape), value in zip(self.inputs, values)]

    def _as_input(self, name, dtype, shape, value):
        """`value` as an array for input `name`, of its dtype and shape."""
        expected = self._input_dtypes[name]
        if isinstance(value, Array):
            with value._instance._lock:
                t = _lib.mlxrt_array_type(value._handle).contents
                got = _DTYPES[t.dtype]
                dims = [t.dims[d] for d in range(t.rank)]
            if got != expected or tuple(dims) != shape:
                raise Error("mismatch", f"model '{self.name}', input "
                            f"'{name}': expected {expected} {list(shape)}, "
                            f"got {got} {dims}")
            return value
        a = _from_python(value, dtype,
                         f"model '{self.name}', input '{name}'")
        what = f"model '{self.name}', input '{name}'"
        if expected == "bfloat16":
            # ml_dtypes' bfloat16, its bits, or float32 values it holds.
            bits = _bfloat16_bits(a, what)
            if bits is not None and bits.shape == shape:
                return self._instance.array(bits, dtype="bfloat16")
        elif a.dtype == dtype and a.shape == shape:
            return self._instance.array(a)
        raise Error("mismatch", f"{what}: expected {expected} {list(shape)}, "
                    f"got {a.dtype} {list(a.shape)}")

    def call(self, *args, outputs=None, **kwargs):
        """Runs the model; returns its outputs as mlxc.Array (they stay in
        the runtime). `outputs` (a dict by name, or a list) gives arrays to
        write; one that is also an input is donated: it holds the new value
        afterwards."""
        inputs = self._inputs(args, kwargs)
        n_out = len(self.outputs)
        names = [p[0] for p in self.outputs]
        given = [None] * n_out
        if isinstance(outputs, dict):
            for name, a in outputs.items():
                if name not in names:
                    raise Error("invalid argument", f"model '{self.name}' has "
                                f"no output '{name}'")
                given[names.index(name)] = a
        elif isinstance(outputs, (list, tuple)):
            if len(outputs) > n_out:
                raise Error("invalid argument", f"model '{self.name}' has "
                            f"{n_out} outputs, got {len(outputs)} in outputs=")
            given = list(outputs) + [None] * (n_out - len(outputs))
        elif outputs is not None:
            raise Error("invalid argument", f"model '{self.name}': outputs= "
                        "takes a dict by output name or a list of "
                        f"mlxc.Array (or None), got {type(outputs).__name__}")
        for name, a in zip(names, given):
            if a is not None and not isinstance(a, Array):
                raise Error("invalid argument", f"model '{self.name}', output "
                            f"'{name}': outputs= takes mlxc.Array (or None), "
                            f"got {type(a).__name__}")
        ins = (ctypes.c_void_p * max(1, len(inputs)))(
            *[a._handle for a in inputs])
        outs = (ctypes.c_void_p * max(1, n_out))(
            *[a._handle if a is not None else None for a in given])
        err = _Err()
        # One call at a time per instance: a model's output buffers and the
        # device's state are shared by its calls.
        with self._instance._lock:
            _check(_lib.mlxrt_model_call(self._handle, ins, len(inputs), outs,
                                         n_out, ctypes.byref(err)), err)
            return [g if g is not None else Array(self._instance, outs[k])
                    for k, g in enumerate(given)]

    def __call__(self, *args, **kwargs):
        """Runs the model on numpy-like values (or mlxc.Array); returns numpy
        arrays: one, or a tuple when the model has several outputs."""
        # The call and the reads as one: another thread's call could
        # otherwise reuse an output's buffer in between.
        with self._instance._lock:
            results = [a.numpy() for a in self.call(*args, **kwargs)]
        return results[0] if len(results) == 1 else tuple(results)

    def __repr__(self):
        return f"mlxc.Model('{self.name}', inputs={self.inputs}, " \
               f"outputs={self.outputs})"


class Instance:
    """A device and what the runtime keeps for it."""

    def __init__(self, device="auto", memory="auto", cuda_graphs=True,
                 libcuda=None, libcublaslt=None, trace=None, runtime=None):
        """device: "auto" (a GPU when there is one, else cpu), "cpu", "cuda",
        "cuda:N"; memory: "auto" (unified where the GPU has it) or "copy";
        trace: a function (kind, ms, text, nbytes) that gets the runtime's
        timings, notes and transfers ("to_device", "to_host": nbytes);
        runtime: the path of libmlxrt.so."""
        self._lock = threading.RLock()
        load_runtime(runtime)
        if not isinstance(device, str):
            raise Error("invalid argument", "device must be 'auto', 'cpu', "
                        f"'cuda' or 'cuda:N', got {device!r}")
        for option, value in (("libcuda", libcuda),
                              ("libcublaslt", libcublaslt)):
            if value is not None and not isinstance(value, (str, os.PathLike)):
                raise Error("invalid argument", f"{option} must be a path, "
                            f"got {value!r}")
        opts = _Options()
        _lib.mlxrt_instance_options_init(ctypes.byref(opts))
        opts.device = device.encode()
        if memory not in ("auto", "copy"):
            raise Error("invalid argument",
                        f"memory must be 'auto' or 'copy', got '{memory}'")
        opts.memory = 0 if memory == "auto" else 1
        opts.no_cuda_graphs = 0 if cuda_graphs else 1
        opts.libcuda = os.fsencode(libcuda) if libcuda else None
        opts.libcublaslt = os.fsencode(libcublaslt) if libcublaslt else None
        if trace is not None:
            def forward(user, event):
                e = event.contents
                trace(_TRACE_KINDS[e.kind], e.ms,
                      e.text.decode(errors="replace") if e.text else "",
                      e.bytes)
            # Kept alive as long as the instance.
            self._trace = _TRACE_FN(forward)
            opts.trace = self._trace
        handle, err = ctypes.c_void_p(), _Err()
        _check(_lib.mlxrt_instance_create(ctypes.byref(opts),
                                          ctypes.byref(handle),
                                          ctypes.byref(err)), err)
        self._handle = handle.value

    def __del__(self):
        if getattr(self, "_handle", None) and _lib is not None:
            with self._lock:
                _lib.mlxrt_instance_destroy(self._handle)
            self._handle = None

    @property
    def device(self):
        with self._lock:
            return _lib.mlxrt_instance_device_name(self._handle).decode()

    def synchronize(self):
        """Waits for every call made so far (on a GPU a call returns once
        enqueued; reading an array waits for the calls that write it)."""
        err = _Err()
        with self._lock:
            status = _lib.mlxrt_instance_synchronize(self._handle,
                                                     ctypes.byref(err))
        _check(status, err)

    def load(self, path):
        """Opens a model made by mlxc --emit=shared (a file here, else what
        dlopen finds by that name)."""
        path = os.fspath(path)
        if os.path.exists(path):
            path = os.path.abspath(path)  # dlopen searches names without '/'.
        handle, err = ctypes.c_void_p(), _Err()
        with self._lock:
            _check(_lib.mlxrt_model_load(self._handle, os.fsencode(path),
                                         ctypes.byref(handle),
                                         ctypes.byref(err)), err)
            return Model(self, handle.value)

    def array(self, value, dtype=None):
        """An array in the runtime holding a copy of `value`. dtype
        "bfloat16" takes a uint16 value as bfloat16 bits, and float32 values
        that bfloat16 holds exactly."""
        if isinstance(value, Array):
            if value._widen and dtype is None:
                dtype = "bfloat16"  # Its float32 copy stands for bfloat16.
            value = value.numpy()
        elif dtype is None and _mlx_bfloat16_bits(value) is not None:
            dtype = "bfloat16"
        a = _contiguous(_as_numpy(value))
        name = a.dtype.name
        if _BF16 is not None and a.dtype == _BF16:
            name = "bfloat16"
        if dtype == "bfloat16" and name in ("uint16", "float32"):
            a, name = _bfloat16_bits(a, "Instance.array"), "bfloat16"
        elif dtype is not None and dtype != name:
            raise Error("mismatch", f"a {a.dtype} value is not {dtype}")
        if name not in _DTYPES:
            raise Error("invalid argument", f"dtype {a.dtype} is not an MLX "
                        "dtype")
        if a.ndim > MAX_RANK:
            raise Error("invalid argument", f"rank {a.ndim} is above "
                        f"{MAX_RANK}")
        dims = (ctypes.c_int64 * max(1, a.ndim))(*a.shape)
        handle, err = ctypes.c_void_p(), _Err()
        with self._lock:
            _check(_lib.mlxrt_array_create(self._handle, _DTYPES.index(name),
                                           a.ndim, dims, a.ctypes.data,
                                           a.nbytes, ctypes.byref(handle),
                                           ctypes.byref(err)), err)
            return Array(self, handle.value)

    def _zeros(self, dtype_index, shape):
        dims = (ctypes.c_int64 * max(1, len(shape)))(*shape)
        handle, err = ctypes.c_void_p(), _Err()
        with self._lock:
            _check(_lib.mlxrt_array_create(self._handle, dtype_index,
                                           len(shape), dims, None, 0,
                                           ctypes.byref(handle),
                                           ctypes.byref(err)), err)
            return Array(self, handle.value)

    def load_array(self, spec):
        """An array read from "FILE.npy", "FILE.npz:ENTRY" or
        "FILE.safetensors:TENSOR"."""
        handle, err = ctypes.c_void_p(), _Err()
        with self._lock:
            _check(_lib.mlxrt_array_load(self._handle, os.fsencode(spec),
                                         ctypes.byref(handle),
                                         ctypes.byref(err)), err)
            return Array(self, handle.value)
