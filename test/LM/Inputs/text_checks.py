#!/usr/bin/env python3
"""Checks of mlxc.lm_text on a byte-level tokenizer (test/LM/text.test).

    text_checks.py utf8 DIR   no streamed piece is half a character
    text_checks.py held DIR   stop strings across pieces, held back
"""

import sys

from mlxc import lm_text

check, folder = sys.argv[1], sys.argv[2]
tok = lm_text.Tokenizer(folder)
if check == "utf8":
    text = "日本 café naïve ünï"
    ids = tok.encode(text)
    detok = lm_text.Detokenizer(tok)
    pieces = [detok.add(i) for i in ids] + [detok.finish()]
    # Some character takes several tokens (an empty piece while it is
    # incomplete); none is ever emitted in part.
    assert len(ids) > len(text.split()) and "" in pieces, (ids, pieces)
    assert not any("\ufffd" in p for p in pieces), pieces
    assert "".join(pieces) == text, pieces
    print("utf8 ok", len(ids), "tokens")
elif check == "held":
    ids = tok.encode("the cat sat on a mat")
    out = [p for p, _ in lm_text.stream_text(tok, iter(ids), stop=["t on"])]
    assert "".join(out) == "the cat sa", out
    # No piece handed out holds text past the stop.
    out = [p for p, _ in lm_text.stream_text(tok, iter(ids), stop=["xyz"])]
    assert "".join(out) == "the cat sat on a mat", out
    print("held ok")
