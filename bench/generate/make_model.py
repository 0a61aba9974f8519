"""Writes an mlx-lm llama folder (config.json, model.safetensors) with the
dimensions of bench/transformer's W9 (8 layers, d 2048, 16 query / 4 key
heads of 128, hidden 5632, vocabulary 32000, bf16) and random weights, for
`python -m mlxc.lm export`. Usage: make_model.py DIR"""
import json
import os
import sys

import mlx.core as mx
from mlx.utils import tree_flatten
from mlx_lm.models import llama

CONFIG = dict(model_type="llama", hidden_size=2048, num_hidden_layers=8,
              intermediate_size=5632, num_attention_heads=16,
              num_key_value_heads=4, head_dim=128, vocab_size=32000,
              rms_norm_eps=1e-5, rope_theta=10000.0,
              tie_word_embeddings=False)


def main(out):
    os.makedirs(out, exist_ok=True)
    mx.random.seed(0)
    model = llama.Model(llama.ModelArgs.from_dict(CONFIG))
    model.set_dtype(mx.bfloat16)
    params = dict(tree_flatten(model.parameters()))
    mx.eval(params)
    mx.save_safetensors(os.path.join(out, "model.safetensors"), params)
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(CONFIG, f, indent=1)


if __name__ == "__main__":
    main(sys.argv[1])
