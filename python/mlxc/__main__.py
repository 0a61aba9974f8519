"""python -m mlxc: look into and run a model compiled with mlxc --emit=shared.

    python -m mlxc info libmodel.so
    python -m mlxc run libmodel.so [--device auto|cpu|cuda:N] \\
        [--bind weights.safetensors]... [--input NAME=FILE.npy]... \\
        [--output NAME=FILE.npy]...

`run` binds the inputs named like tensors of each --bind file, the others
from .npy files, and writes the outputs named by --output (without any, it
prints each output's dtype, shape and first values).
"""

import argparse
import sys

import numpy as np

import mlxc


def _pairs(values, what):
    pairs = {}
    for value in values:
        name, sep, path = value.partition("=")
        if not sep or not name or not path:
            sys.exit(f"error: {what} takes NAME=FILE, got '{value}'")
        pairs[name] = path
    return pairs


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
                     help="NAME=FILE.npy")
    run.add_argument("--output", action="append", default=[],
                     help="NAME=FILE.npy")
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
        inputs = {name: np.load(path)
                  for name, path in _pairs(args.input, "--input").items()}
        results = model.call(**inputs)
        outputs = _pairs(args.output, "--output")
        names = [p[0] for p in model.outputs]
        for name in outputs:
            if name not in names:
                sys.exit(f"error: model '{model.name}' has no output "
                         f"'{name}' (outputs: {', '.join(names)})")
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
