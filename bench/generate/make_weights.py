"""On the GPU machine: writes DIR/model.safetensors with the names, dtypes
and shapes of DIR/weights.json (random bf16 values, as make_model.py's
folder but without carrying its 1 GB). Usage: make_weights.py DIR"""
import json
import os
import struct
import sys

import numpy as np


def main(folder):
    with open(os.path.join(folder, "weights.json")) as f:
        spec = json.load(f)
    rng = np.random.default_rng(0)
    header, blobs, offset = {}, [], 0
    for name, (dtype, shape) in sorted(spec.items()):
        assert dtype == "BF16", (name, dtype)
        n = int(np.prod(shape))
        values = (rng.standard_normal(n, dtype=np.float32) * 0.02)
        if name.endswith("norm.weight"):
            values = 1.0 + values
        bits = (values.view(np.uint32) + 0x8000 >> 16).astype(np.uint16)
        blobs.append(bits.tobytes())
        header[name] = dict(dtype=dtype, shape=shape,
                            data_offsets=[offset, offset + 2 * n])
        offset += 2 * n
    text = json.dumps(header).encode()
    text += b" " * (-len(text) % 8)
    with open(os.path.join(folder, "model.safetensors"), "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text)
        for b in blobs:
            f.write(b)


if __name__ == "__main__":
    main(sys.argv[1])
