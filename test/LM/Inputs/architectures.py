#!/usr/bin/env python3
"""More mlx-lm architectures than test/LM's own tests, each a tiny model of
mlx-lm's class with random weights (tiny_model.py's sizes): exported and
compiled for the CPU by `python -m mlxc.lm`, and its 8 greedy tokens from the
Python generator compared with mlx-lm's own greedy generation.

    architectures.py list [GROUP]           the architectures (of a group)
    architectures.py check --mlxc MLXC --workdir DIR GROUP|ARCH...

`check` prints one line per architecture ("ARCH: ok TOKENS", or what
differed) and "N of M architectures generate mlx-lm's tokens"; it exits
non-zero when one does not. The environment must let `python -m mlxc.lm`
run (PYTHONPATH, MLXC_RUNTIME), as test/LM's lit configuration sets it.
"""

import argparse
import contextlib
import io
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tiny_model  # noqa: E402

# Each: the config's own fields beside tiny_model.COMMON's sizes (RoPE base
# 10000 unless set). Windows of 4 tokens, shorter than the prompt.
GROUPS = {
    # Dense transformers: llama's variants (biases, norms, partial rotary,
    # scaled residuals, logit soft-capping, sliding windows).
    "dense": {
        "phi3": {}, "qwen2": {}, "olmo2": {}, "gemma": {}, "gemma2": {},
        "cohere": {}, "cohere2": dict(sliding_window=4,
                                      sliding_window_pattern=2),
        "starcoder2": {}, "phi": {}, "internlm2": {}, "internlm3": {},
        "smollm3": {}, "seed_oss": {}, "hunyuan_v1_dense": {}, "glm": {},
        "telechat3": {}, "nanochat": {},
        "stablelm": dict(use_qkv_bias=False, partial_rotary_factor=0.5,
                         layer_norm_eps=1e-5),
    },
    "dense2": {
        "granite": dict(logits_scaling=2.0, attention_multiplier=0.1,
                        embedding_multiplier=3.0, residual_multiplier=0.5,
                        attention_bias=False, mlp_bias=False),
        "gpt_neox": dict(layer_norm_eps=1e-5, rotary_emb_base=10000,
                         rotary_pct=0.5),
        "gpt2": dict(n_ctx=256, n_embd=64, n_head=4, n_layer=2,
                     n_positions=256, layer_norm_epsilon=1e-5),
        "glm4": dict(attention_bias=True, partial_rotary_factor=0.5),
        "ernie4_5": dict(use_bias=False),
        "olmo3": dict(sliding_window=4,
                      layer_types=["sliding_attention", "full_attention"]),
        "exaone": dict(num_layers=2, layer_norm_epsilon=1e-5),
        "exaone4": dict(rope_scaling=None, sliding_window=4,
                        sliding_window_pattern="LG"),
        "llama4_text": dict(intermediate_size_mlp=128, no_rope_layers=[1, 0],
                            use_qk_norm=True),
        "helium": dict(attention_bias=False, mlp_bias=False),
        "nemotron": dict(hidden_act="relu2", norm_eps=1e-5,
                         partial_rotary_factor=0.5),
        "apertus": dict(mlp_bias=False, attention_bias=False,
                        post_norm=False, qk_norm=True),
        "gemma4_text": dict(global_head_dim=32, num_kv_shared_layers=0,
                            vocab_size_per_layer_input=256,
                            hidden_size_per_layer_input=16, sliding_window=4,
                            sliding_window_pattern=2,
                            layer_types=["sliding_attention",
                                         "full_attention"]),
    },
    # Mixtures of experts.
    "moe": {
        "mixtral": {}, "deepseek": {}, "deepseek_v3": {}, "phimoe": {},
        "gpt_oss": {},
        "qwen2_moe": dict(num_experts_per_tok=2, num_experts=4,
                          moe_intermediate_size=32,
                          shared_expert_intermediate_size=64),
        "olmoe": dict(num_experts=4, num_experts_per_tok=2),
        "granitemoe": dict(logits_scaling=2.0, attention_multiplier=0.1,
                           embedding_multiplier=3.0, residual_multiplier=0.5,
                           attention_bias=False, num_local_experts=4,
                           num_experts_per_tok=2),
        "minimax": dict(num_experts_per_tok=2, num_local_experts=4,
                        shared_intermediate_size=0, rotary_dim=8),
        "dots1": dict(first_k_dense_replace=1, moe_intermediate_size=32,
                      n_routed_experts=4, n_shared_experts=1,
                      norm_topk_prob=True, num_experts_per_tok=2,
                      routed_scaling_factor=1.0),
        "glm4_moe": dict(moe_intermediate_size=32, norm_topk_prob=True,
                         n_group=1, topk_group=1, n_shared_experts=1,
                         n_routed_experts=4, routed_scaling_factor=1.0,
                         num_experts_per_tok=2, first_k_dense_replace=1,
                         rope_scaling=None, use_qk_norm=True,
                         attention_bias=False, partial_rotary_factor=0.5),
    },
    # Recurrent states beside (or instead of) KV caches.
    "recurrent": {
        "falcon_h1": {}, "plamo2": {},
        "lfm2": dict(norm_eps=1e-5, conv_bias=False, conv_L_cache=3,
                     block_dim=64, block_multiple_of=16,
                     block_ffn_dim_multiplier=1.0,
                     block_auto_adjust_ff_dim=False, full_attn_idxs=[1],
                     layer_types=["conv", "full_attention"]),
        "mamba2": dict(num_heads=4, state_size=8, layer_norm_epsilon=1e-5,
                       conv_kernel=4, n_groups=1, use_bias=False,
                       use_conv_bias=True, time_step_limit=[0.0, 1e9],
                       time_step_rank=8),
        "recurrent_gemma": dict(attention_bias=False, conv1d_width=4,
                                logits_soft_cap=30.0, attention_window_size=4,
                                block_types=["recurrent", "attention"]),
        "rwkv7": dict(norm_eps=1e-5, a_low_rank_dim=8, v_low_rank_dim=8,
                      gate_low_rank_dim=8, decay_low_rank_dim=8),
        "jamba": dict(attn_layer_offset=1, attn_layer_period=2,
                      expert_layer_offset=1, expert_layer_period=2,
                      mamba_d_conv=4, mamba_d_state=8, mamba_expand=2,
                      num_experts=4, num_experts_per_tok=2),
        "qwen3_5": dict(text_config=dict(
            tiny_model.COMMON, model_type="qwen3_5_text",
            linear_num_value_heads=4, linear_num_key_heads=2,
            linear_key_head_dim=16, linear_value_head_dim=16,
            linear_conv_kernel_dim=4, full_attention_interval=2,
            rope_parameters=dict(rope_theta=10000.0, partial_rotary_factor=0.5,
                                 rope_type="default"))),
    },
}
ARCHS = {arch: fields for group in GROUPS.values()
         for arch, fields in group.items()}
PROMPT = "5,17,42,7,99,3"


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def last_line(result):
    lines = (result.stderr or result.stdout).strip().splitlines()
    return lines[-1] if lines else f"exit status {result.returncode}"


def check(arch, mlxc, workdir):
    """One line: "ARCH: ok TOKENS" or what failed."""
    folder = os.path.join(workdir, arch)
    shutil.rmtree(folder, ignore_errors=True)
    # tiny_model.make builds the architectures of its own table: this one
    # joins it, and the model is made here.
    tiny_model.CONFIGS[arch] = dict({"model_type": arch,
                                     "rope_theta": 10000.0}, **ARCHS[arch])
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            tiny_model.make(arch, f"{folder}/model")
    except Exception as e:  # a config this mlx-lm does not take
        return False, f"{arch}: the tiny model: {type(e).__name__}: {e}"
    expected = run([sys.executable, tiny_model.__file__, "generate",
                    f"{folder}/model", "--prompt", PROMPT, "-n", "8"])
    if expected.returncode:
        return False, f"{arch}: mlx-lm's generation: {last_line(expected)}"
    exported = run([sys.executable, "-m", "mlxc.lm", "export",
                    f"{folder}/model", "-o", f"{folder}/out", "--max-len",
                    "16", "--prefill-len", "4", "--mlxc", mlxc])
    if exported.returncode:
        return False, f"{arch}: export: {last_line(exported)}"
    got = run([sys.executable, "-m", "mlxc.lm", "generate", f"{folder}/out",
               "--prompt", PROMPT, "-n", "8", "--device", "cpu"])
    if got.returncode:
        return False, f"{arch}: generate: {last_line(got)}"
    if got.stdout.split() != expected.stdout.split():
        return False, (f"{arch}: tokens {got.stdout.strip()}, mlx-lm's "
                       f"{expected.stdout.strip()}")
    shutil.rmtree(folder, ignore_errors=True)
    return True, f"{arch}: ok {got.stdout.strip()}"


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="command", required=True)
    ls = sub.add_parser("list")
    ls.add_argument("group", nargs="?", choices=sorted(GROUPS))
    c = sub.add_parser("check")
    c.add_argument("--mlxc", required=True)
    c.add_argument("--workdir", required=True)
    c.add_argument("names", nargs="+", metavar="GROUP|ARCH")
    args = ap.parse_args()
    if args.command == "list":
        print(" ".join(GROUPS[args.group] if args.group else ARCHS))
        return 0
    archs = []
    for name in args.names:
        if name not in GROUPS and name not in ARCHS:
            ap.error(f"no group or architecture named {name!r}")
        archs += list(GROUPS[name]) if name in GROUPS else [name]
    passed = 0
    for arch in archs:
        ok, line = check(arch, args.mlxc, args.workdir)
        passed += ok
        print(line, flush=True)
    print(f"{passed} of {len(archs)} architectures generate mlx-lm's tokens")
    return 0 if passed == len(archs) else 1


if __name__ == "__main__":
    sys.exit(main())
