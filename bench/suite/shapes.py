#!/usr/bin/env python3
"""The GEMV benchmark suite: one "name M K L" line per shape.

    bench/suite/shapes.py [problem|models|random|all|tune]

problem: the five shapes of docs/problem.md section 4.
models:  projections of published open-weight model configs (M = output
         features, K = input features, L = 1), attention and MLP, both
         directions; hidden sizes that are not powers of two included.
random:  50 shapes drawn with a fixed seed (printed in the header): M
         log-uniform in [1, 32768], K a multiple of 16 log-uniform in
         [16, 32768], L in [1, 8], redrawn while a exceeds 128 MB (MXFP4
         rounds K up to a multiple of 32).
tune:    a third of the suite for sweeping configurations (bench/suite/
         sweep.sh): the problem shapes, every other model shape and every
         fifth random one.
"""
import math
import random
import sys

SEED = 20261130

PROBLEM = [(7168, 16384, 1), (4096, 7168, 8), (7168, 2048, 4),
           (4096, 7168, 1), (7168, 2048, 1)]

# (model, projection, M, K): from each model's config.json (hidden_size,
# intermediate_size, attention heads x head_dim, key/value heads).
MODELS = [
    ("llama3-8b", "qkv", 6144, 4096), ("llama3-8b", "o", 4096, 4096),
    ("llama3-8b", "gate_up", 28672, 4096), ("llama3-8b", "down", 4096, 14336),
    ("llama3-70b", "qkv", 10240, 8192), ("llama3-70b", "o", 8192, 8192),
    ("llama3-70b", "gate_up", 57344, 8192),
    ("llama3-70b", "down", 8192, 28672),
    ("llama3.2-1b", "qkv", 3072, 2048), ("llama3.2-1b", "o", 2048, 2048),
    ("llama3.2-1b", "gate_up", 16384, 2048),
    ("llama3.2-1b", "down", 2048, 8192),
    ("qwen2.5-7b", "qkv", 4608, 3584), ("qwen2.5-7b", "o", 3584, 3584),
    ("qwen2.5-7b", "gate_up", 37888, 3584),
    ("qwen2.5-7b", "down", 3584, 18944),
    ("qwen2.5-72b", "gate_up", 59136, 8192),
    ("qwen2.5-72b", "down", 8192, 29568),
    ("qwen3-30b-a3b", "expert_gate_up", 1536, 2048),
    ("qwen3-30b-a3b", "expert_down", 2048, 768),
    ("mistral-nemo-12b", "qkv", 6144, 5120),
    ("mistral-nemo-12b", "o", 5120, 4096),
    ("mistral-nemo-12b", "gate_up", 28672, 5120),
    ("mistral-nemo-12b", "down", 5120, 14336),
    ("gpt-oss-20b", "qkv", 5120, 2880), ("gpt-oss-20b", "o", 2880, 4096),
    ("gpt-oss-20b", "expert_gate_up", 5760, 2880),
    ("gpt-oss-20b", "expert_down", 2880, 2880),
    ("deepseek-v3", "q_a", 1536, 7168), ("deepseek-v3", "kv_a", 576, 7168),
    ("deepseek-v3", "q_b", 24576, 1536), ("deepseek-v3", "kv_b", 32768, 512),
    ("deepseek-v3", "o", 7168, 16384),
    ("deepseek-v3", "expert_gate_up", 4096, 7168),
    ("deepseek-v3", "expert_down", 7168, 2048),
    ("deepseek-v3", "dense_down", 7168, 18432),
    ("phi3-mini", "qkv", 9216, 3072), ("phi3-mini", "o", 3072, 3072),
    ("phi3-mini", "gate_up", 16384, 3072), ("phi3-mini", "down", 3072, 8192),
    ("gemma2-9b", "qkv", 8192, 3584), ("gemma2-9b", "o", 3584, 4096),
    ("gemma2-9b", "gate_up", 28672, 3584), ("gemma2-9b", "down", 3584, 14336),
    ("gemma3-27b", "qkv", 8192, 5376), ("gemma3-27b", "o", 5376, 4096),
    ("gemma3-27b", "gate_up", 43008, 5376),
    ("gemma3-27b", "down", 5376, 21504),
    ("llama3-8b", "lm_head", 128256, 4096),
]


def random_shapes():
    rng = random.Random(SEED)
    shapes = []
    while len(shapes) < 50:
        m = int(round(math.exp(rng.uniform(0, math.log(32768)))))
        k = 16 * int(round(math.exp(rng.uniform(0, math.log(2048)))))
        l = rng.randint(1, 8)
        if m * k // 2 * l > 128 << 20:
            continue
        shapes.append((m, k, l))
    return shapes


def main():
    which = sys.argv[1] if len(sys.argv) > 1 else "all"
    if which not in ("problem", "models", "random", "all", "tune"):
        sys.exit(f"usage: {sys.argv[0]} [problem|models|random|all|tune]")
    print(f"# nvfp4 GEMV suite ({which}); random seed {SEED}")
    every = {"tune": (2, 5)}.get(which, (1, 1))
    if which in ("problem", "all", "tune"):
        for m, k, l in PROBLEM:
            print(f"problem {m} {k} {l}")
    if which in ("models", "all", "tune"):
        for model, proj, m, k in MODELS[::every[0]]:
            print(f"{model}.{proj} {m} {k} 1")
    if which in ("random", "all", "tune"):
        for i, (m, k, l) in enumerate(random_shapes()):
            if i % every[1] == 0:
                print(f"random{i:02d} {m} {k} {l}")


if __name__ == "__main__":
    main()
