#!/usr/bin/env python3
"""A small real tokenizer for the tiny models of tiny_model.py, made with the
`tokenizers` library and saved as an mlx-community folder carries one.

    tiny_tokenizer.py word DIR   a WordLevel tokenizer of exactly 256 ids
                                 (the tiny models' vocabulary): <unk>, <s>,
                                 </s>, chat markers, words, fillers; written
                                 into DIR (tokenizer.json,
                                 tokenizer_config.json with a chat template)
    tiny_tokenizer.py bytes DIR  a byte-level BPE (ids of single bytes, so
                                 a character can take several tokens)
"""

import json
import sys
from pathlib import Path

from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

CHAT = ("{% for m in messages %}<|{{ m['role'] }}|> {{ m['content'] }} "
        "{% endfor %}{% if add_generation_prompt %}<|assistant|> {% endif %}")
SPECIAL = ["<unk>", "<s>", "</s>"]
MARKERS = ["<|user|>", "<|assistant|>", "<|system|>"]
WORDS = ("the cat sat on a mat and dog ran to it hello world what is your "
         "name how are you café naïve 日本 ünï").split()


def word(folder):
    vocab = {t: i for i, t in enumerate(SPECIAL + MARKERS + WORDS)}
    for i in range(len(vocab), 256):
        vocab[f"w{i}"] = i
    tok = Tokenizer(models.WordLevel(vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    tok.add_special_tokens(SPECIAL)
    save(tok, folder)


def byte_level(folder):
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=300, special_tokens=SPECIAL,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet())
    tok.train_from_iterator([" ".join(WORDS)], trainer)
    save(tok, folder)


def save(tok, folder):
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tok.save(str(folder / "tokenizer.json"))
    config = {"tokenizer_class": "PreTrainedTokenizerFast",
              "bos_token": "<s>", "eos_token": "</s>", "unk_token": "<unk>",
              "chat_template": CHAT}
    (folder / "tokenizer_config.json").write_text(json.dumps(config))


if __name__ == "__main__":
    {"word": word, "bytes": byte_level}[sys.argv[1]](sys.argv[2])
