"""Text in, text out for mlxc.lm: the model folder's tokenizer and chat
template (through `transformers`, which reads tokenizer.json,
tokenizer_config.json and chat_template.jinja as mlx-lm does), EOS and stop
strings, and a detokenizer that streams text without ever emitting half a
UTF-8 character."""

import json
import os

# What export copies from the model folder into its output folder, so that
# the output folder alone generates text (config.json: its eos_token_id).
TOKENIZER_FILES = ("config.json", "tokenizer.json", "tokenizer_config.json",
                   "special_tokens_map.json", "chat_template.jinja",
                   "chat_template.json", "generation_config.json",
                   "tokenizer.model", "vocab.json", "merges.txt")


def has_tokenizer(folder):
    return os.path.isfile(os.path.join(folder, "tokenizer.json")) or \
        os.path.isfile(os.path.join(folder, "tokenizer_config.json"))


class Tokenizer:
    """The tokenizer of a folder (a model folder or what export wrote)."""

    def __init__(self, folder):
        if not has_tokenizer(folder):
            raise FileNotFoundError(
                f"{folder}: no tokenizer.json or tokenizer_config.json (give "
                "token ids with --prompt 1,2,3, or export from a model "
                "folder that has its tokenizer)")
        # Without PyTorch, transformers warns at import; tokenizers alone
        # need none.
        os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
        try:
            from transformers import AutoTokenizer
        except ImportError:
            raise ImportError("text prompts need transformers: pip install "
                              "tokenizers transformers")
        self.hf = AutoTokenizer.from_pretrained(folder)
        # As mlx-lm: generation_config.json's eos_token_id, else
        # config.json's, else the tokenizer's (a chat model's end of turn
        # is often only in the first).
        eos = None
        for name in ("config.json", "generation_config.json"):
            path = os.path.join(folder, name)
            if os.path.isfile(path):
                with open(path) as f:
                    eos = json.load(f).get("eos_token_id") or eos
        if eos is None:
            eos = self.hf.eos_token_id
        self.eos_ids = {int(t) for t in
                        (eos if isinstance(eos, list) else [eos])
                        if isinstance(t, int)}

    def encode(self, text, chat=False):
        """Token ids of `text`, or of `text` as one user message through the
        chat template; `text` may also be a list of chat messages."""
        if chat or isinstance(text, list):
            if not getattr(self.hf, "chat_template", None):
                raise ValueError("the tokenizer has no chat template")
            messages = text if isinstance(text, list) else \
                [{"role": "user", "content": text}]
            ids = self.hf.apply_chat_template(
                messages, add_generation_prompt=True, tokenize=True)
            if isinstance(ids, dict) or hasattr(ids, "keys"):
                ids = ids["input_ids"]
            return [int(t) for t in ids]
        return [int(t) for t in self.hf.encode(text)]

    def decode(self, ids):
        # As mlx-lm: special tokens other than EOS stay in the text.
        return self.hf.decode(ids)


class Detokenizer:
    """Text of a growing list of tokens, a piece at a time: the pieces are
    the whole text's suffixes, held back while the text ends in an
    incomplete UTF-8 character (decoded as U+FFFD), so none is ever half a
    character, and joined they are decode(all tokens)."""

    def __init__(self, tokenizer):
        self.tokenizer = tokenizer
        self.tokens = []
        self.emitted = 0  # characters of the text handed out

    def add(self, token):
        """The new text after `token` ('' while a character is incomplete)."""
        self.tokens.append(int(token))
        text = self.tokenizer.decode(self.tokens)
        if text.endswith("\ufffd"):
            return ""
        piece, self.emitted = text[self.emitted:], len(text)
        return piece

    def finish(self):
        """What is left (a character left incomplete at the end)."""
        text = self.tokenizer.decode(self.tokens)
        piece, self.emitted = text[self.emitted:], len(text)
        return piece


def stream_text(tokenizer, tokens, stop=()):
    """Text pieces from an iterator of tokens, ending at an EOS token or at
    the first stop string (excluded, as OpenAI's `stop`). Text that may be
    the beginning of a stop string is held back until it is not. Yields
    (piece, token or None); returns (via StopIteration.value) the reason:
    'stop' or 'length'."""
    stop = [s for s in stop if s]
    detok = Detokenizer(tokenizer)
    held = ""
    for token in tokens:
        if token in tokenizer.eos_ids:
            yield held, token
            return "stop"
        held += detok.add(token)
        for s in stop:
            at = held.find(s)
            if at >= 0:
                yield held[:at], token
                return "stop"
        # Keep the longest suffix that begins some stop string.
        keep = 0
        for s in stop:
            for n in range(min(len(s) - 1, len(held)), keep, -1):
                if held.endswith(s[:n]):
                    keep = n
                    break
        out, held = held[:len(held) - keep], held[len(held) - keep:]
        yield out, token
    held += detok.finish()
    for s in stop:
        at = held.find(s)
        if at >= 0:
            held = held[:at]
    yield held, None
    return "length"
