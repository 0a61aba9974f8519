#!/usr/bin/env python3
"""mlx-lm's own greedy text from a model folder with a tokenizer (the
reference of test/LM/text.test).

    mlx_text.py DIR PROMPT N [--chat]
"""

import sys

import mlx_lm

folder, prompt, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
model, tokenizer = mlx_lm.load(folder)
if "--chat" in sys.argv:
    prompt = tokenizer.apply_chat_template(
        [{"role": "user", "content": prompt}], add_generation_prompt=True)
print(mlx_lm.generate(model, tokenizer, prompt, max_tokens=n, verbose=False))
