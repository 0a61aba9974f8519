#!/usr/bin/env python3
"""Tiny random-weight language models built with mlx-lm's own classes, and
mlx-lm's own greedy generation from them (the reference of test/LM).

    tiny_model.py list              the architectures mlxc.lm supports
    tiny_model.py make ARCH DIR [--quantize MODE] [--layers N]
                                    a model folder as mlx-lm writes one
                                    (config.json, model.safetensors),
                                    quantized as mlx_lm.convert does
    tiny_model.py generate DIR --prompt 1,2,3 -n N
                                    mlx_lm's generate_step at temperature 0:
                                    the N token ids on one line
"""

import argparse
import sys
from pathlib import Path

import mlx.core as mx

# Small enough to compile in seconds; a sliding window shorter than the
# tests' prompts; several heads per KV head.
COMMON = dict(hidden_size=64, num_hidden_layers=2, intermediate_size=128,
              num_attention_heads=4, num_key_value_heads=2, head_dim=16,
              vocab_size=256, rms_norm_eps=1e-5, tie_word_embeddings=False,
              max_position_embeddings=256)
CONFIGS = {
    "llama": dict(model_type="llama", rope_theta=10000.0),
    "qwen3": dict(model_type="qwen3", rope_theta=1000000.0),
    # Layer 0 slides over 4 tokens, layer 1 sees everything; gemma's norms
    # (1 + weight), embedding scale and gelu.
    "gemma3_text": dict(model_type="gemma3_text", sliding_window=4,
                        sliding_window_pattern=2, query_pre_attn_scalar=16,
                        rope_local_base_freq=10000.0, rope_theta=1000000.0),
    "qwen3_moe": dict(model_type="qwen3_moe", num_experts=4,
                      num_experts_per_tok=2, moe_intermediate_size=32,
                      decoder_sparse_step=1, mlp_only_layers=[],
                      norm_topk_prob=True, rope_theta=1000000.0),
    # A state-space model: a recurrent state per layer (ArraysCache), no KV
    # cache.
    "mamba": dict(model_type="mamba", state_size=8, conv_kernel=4,
                  use_bias=False, use_conv_bias=True, time_step_rank=8),
    # Gated-delta linear attention (layer 0: a recurrent state) and full
    # attention (layer 1: a KV cache), experts.
    "qwen3_next": dict(model_type="qwen3_next", linear_num_value_heads=4,
                       linear_num_key_heads=2, linear_key_head_dim=16,
                       linear_value_head_dim=16, linear_conv_kernel_dim=4,
                       full_attention_interval=2, num_experts=4,
                       num_experts_per_tok=2, decoder_sparse_step=1,
                       shared_expert_intermediate_size=64, mlp_only_layers=[],
                       moe_intermediate_size=32, norm_topk_prob=True,
                       partial_rotary_factor=0.5, rope_theta=10000.0),
    # A head that mlx-lm normalizes when it loads the weights (sanitize), a
    # short convolution over keys and values (an ArraysCache beside each
    # KV cache: CacheList), a sliding window on layer 0.
    "baichuan_m1": dict(model_type="baichuan_m1", sliding_window=4,
                        sliding_window_layers=[0], conv_window=2,
                        rope_theta=1000.0),
    # Layers 2 and 3 read the caches of layers 0 and 1 (keys_and_values,
    # at the step's own positions); layer 0's activations are sparse (a
    # top-k by mean and standard deviation); AltUp and per-layer inputs.
    "gemma3n": dict(model_type="gemma3n", text_config=dict(
        COMMON, model_type="gemma3n", num_hidden_layers=4,
        num_kv_shared_layers=2, vocab_size_per_layer_input=256,
        sliding_window=4, rope_local_base_freq=10000.0,
        rope_theta=1000000.0, final_logit_softcapping=30.0,
        layer_types=["sliding_attention", "full_attention"] * 2,
        activation_sparsity_pattern=[0.95, 0.0, 0.0, 0.0],
        hidden_size_per_layer_input=16, altup_num_inputs=4,
        altup_coef_clip=120.0, altup_correct_scale=True, altup_active_idx=0,
        laurel_rank=8)),
}
# Refused by mlxc.lm (their tests check the message).
UNSUPPORTED = {
    # Its last layers read the last cache and take their positions from its
    # length, which is max_len in a fixed cache.
    "afm7": dict(model_type="afm7", hidden_dim=64, num_layers=4,
                 num_kv_reuse_layers=2, num_heads=4, num_kv_heads=2),
}


def make(arch, folder, quantize=None, layers=None):
    from mlx.utils import tree_flatten, tree_map
    from mlx_lm.utils import (_get_classes, quantize_model, save_config,
                              save_model)
    config = dict(COMMON, **{**CONFIGS, **UNSUPPORTED}[arch])
    if layers:
        config["num_hidden_layers"] = layers
    model_class, args_class = _get_classes(config)
    mx.random.seed(0)
    model = model_class(args_class.from_dict(config))
    # Larger than the default initialisation, so that every token, position
    # and layer moves the logits: a wrong cache changes the tokens.
    model.update(tree_map(lambda w: w * 2.0, model.parameters()))
    mx.eval(model.parameters())
    # As mlx_lm.convert quantizes (what mlx-community's models are).
    if quantize == "affine4":
        model, config = quantize_model(model, config, 32, 4)
    elif quantize:
        model, config = quantize_model(model, config, None, None,
                                       mode=quantize)
    save_model(folder, model)
    save_config(config, Path(folder) / "config.json")
    print(f"{arch}: {sum(w.size for _, w in tree_flatten(model.parameters()))}"
          " parameters")


def generate(folder, prompt, n):
    from mlx_lm.generate import generate_step
    from mlx_lm.utils import load_model
    model, _ = load_model(Path(folder))
    tokens = [t for t, _ in generate_step(mx.array(prompt), model,
                                          max_tokens=n)]
    print(" ".join(map(str, tokens)))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("list")
    m = sub.add_parser("make")
    m.add_argument("arch", choices=sorted(CONFIGS) + sorted(UNSUPPORTED))
    m.add_argument("folder")
    m.add_argument("--quantize", choices=["affine4", "mxfp4", "mxfp8",
                                          "nvfp4"])
    m.add_argument("--layers", type=int, help="num_hidden_layers")
    g = sub.add_parser("generate")
    g.add_argument("folder")
    g.add_argument("--prompt", required=True)
    g.add_argument("-n", type=int, default=8)
    args = ap.parse_args()
    if args.command == "list":
        print(" ".join(CONFIGS))
    elif args.command == "make":
        make(args.arch, args.folder, args.quantize, args.layers)
    else:
        generate(args.folder, [int(t) for t in args.prompt.split(",")],
                 args.n)


if __name__ == "__main__":
    sys.exit(main())
