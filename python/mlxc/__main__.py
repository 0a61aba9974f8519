"""python -m mlxc: look into and run a model compiled with mlxc --emit=shared.

    python -m mlxc info libmodel.so
    python -m mlxc run libmodel.so [--device auto|cpu|cuda:N] \\
        [--bind weights.safetensors]... [--input [NAME=]FILE]... \\
        [--output [NAME=]FILE]...

`run` binds the inputs named like tensors of each --bind file, then each
--input as mlxc's executables do: `--input FILE` is the next input not bound
by name (nor by --bind), `--input NAME=FILE` the input called NAME; FILE is
a .npy file, FILE.npz[:ENTRY] or FILE.safetensors[:TENSOR] (ENTRY and TENSOR
default to the input's name). `--output FILE` writes the next output not
named, `--output NAME=FILE` the output called NAME, as .npy; without any
--output it prints each output's dtype, shape and first values.
"""

import argparse
import sys

import mlxc


def _split(value):
    """(NAME, FILE) or (None, FILE), by the executables' rule: the text
    before the first '=' is a name when it is non-empty and no path (no
    '/'), so "./a=b.npy" stays a path."""
    name, sep, path = value.partition("=")
    if sep and name and "/" not in name:
        return name, path
    return None, value


def _assign(values, names, taken, what):
    """{name: FILE}: named values first, then the others in order to the
    names neither named nor taken (bound by --bind); exits with the
    executables' messages."""
    chosen = {}
    split = [_split(v) for v in values]
    for name, path in split:
        if name is None:
            continue
        if name not in names:
            sys.exit(f"error: no {what} named '{name}' ({what}s: "
                     f"{', '.join(names) or 'none'})")
        if name in chosen:  # By name, it may replace a --bind tensor.
            sys.exit(f"error: {what} '{name}' given twice")
        chosen[name] = path
    free = [n for n in names if n not in chosen and n not in taken]
    unnamed = [path for name, path in split if name is None]
    if len(unnamed) > len(free):
        sys.exit(f"error: expected {len(names)} {what}s, got {len(values)}"
                 + (f" ({', '.join(taken)} bound by --bind)" if taken else ""))
    chosen.update(zip(free, unnamed))
    return chosen


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m mlxc",
                                     description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    info = sub.add_parser("info", help="the model's inputs and outputs")
    info.add_argument("model")
    run = sub.add_parser("run", help="call the model once")
    run.add_argument("model")
    run.add_argument("--device", default="auto")
    run.add_argument("--bind", action="append", default=[],
                     help=".safetensors or .npz file of named inputs")
    run.add_argument("--input", action="append", default=[],
                     metavar="[NAME=]FILE",
                     help="the next input not bound by name, or NAME")
    run.add_argument("--output", action="append", default=[],
                     metavar="[NAME=]FILE",
                     help="the next output not named, or NAME (.npy)")
    args = parser.parse_args(argv)
    try:
        rt = mlxc.Instance(device=getattr(args, "device", "cpu"))
        model = rt.load(args.model)
        if args.command == "info":
            code = "CPU and CUDA" if model.has_cuda else "CPU"
            print(f"model '{model.name}' ({code} code), on {rt.device}")
            for title, params in (("inputs", model.inputs),
                                  ("outputs", model.outputs)):
                print(f"{title}:")
                for name, dtype, shape in params:
                    print(f"  {name}  {dtype} {list(shape)}")
            return 0
        for path in args.bind:
            model.bind_file(path)
        inputs = _assign(args.input, [p[0] for p in model.inputs],
                         list(model.bound), "input")
        names = [p[0] for p in model.outputs]
        outputs = _assign(args.output, names, [], "output")
        results = model.call(**{name: model.load_input(name, path)
                                for name, path in inputs.items()})
        for name, array in zip(names, results):
            if name in outputs:
                array.save(outputs[name])
            elif not outputs:
                values = array.numpy().reshape(-1)[:8]
                print(f"{name}: {array.dtype} {list(array.shape)} = "
                      f"{values.tolist()}")
        return 0
    except (mlxc.Error, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
