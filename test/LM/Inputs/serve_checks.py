"""Starts `python -m mlxc.lm serve OUT` on a free port and talks to it with
the openai client: chat and plain completions, streaming equal to
non-streaming, 8 concurrent greedy requests each equal to the request alone,
bad requests answered 400 (the server serving on). Prints 'serve ok'.

usage: serve_checks.py OUT [serve args...]"""

import concurrent.futures
import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import openai


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post(base, path, data):
    """(status, body) of a raw POST of `data` (bytes)."""
    req = urllib.request.Request(base + path, data=data, headers={
        "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def main():
    out, extra = sys.argv[1], sys.argv[2:]
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "mlxc.lm", "serve", out, "--port", str(port)]
        + extra)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            if server.poll() is not None:
                sys.exit(f"the server exited ({server.returncode})")
            try:
                urllib.request.urlopen(base + "/v1/models").read()
                break
            except OSError:
                time.sleep(0.1)
        client = openai.OpenAI(base_url=base + "/v1", api_key="none")
        model = client.models.list().data[0].id

        def complete(prompt, n=8):
            r = client.completions.create(model=model, prompt=prompt,
                                          max_tokens=n, temperature=0)
            return r.choices[0].text, r.usage.completion_tokens

        def stream(prompt, n=8):
            return "".join(c.choices[0].text for c in
                           client.completions.create(
                               model=model, prompt=prompt, max_tokens=n,
                               stream=True))

        # Plain completions: the text of mlxc.lm generate (argv's expected).
        text, used = complete("hello world")
        assert used >= 1, used
        expected = os.environ.get("EXPECTED")
        if expected is not None:
            want = open(expected).read().rstrip("\n")
            assert text == want, (text, want)
        assert stream("hello world") == text, (stream("hello world"), text)

        # Chat.
        msgs = [{"role": "user", "content": "what is your name"}]
        r = client.chat.completions.create(model=model, messages=msgs,
                                           max_tokens=8)
        chat = r.choices[0].message.content
        expected = os.environ.get("EXPECTED_CHAT")
        if expected is not None:
            want = open(expected).read().rstrip("\n")
            assert chat == want, (chat, want)
        streamed = "".join(c.choices[0].delta.content or "" for c in
                           client.chat.completions.create(
                               model=model, messages=msgs, max_tokens=8,
                               stream=True))
        assert streamed == chat, (streamed, chat)

        # 8 concurrent greedy requests, each as alone.
        prompts = ["hello world", "what is your name", "hello", "world",
                   "name your world", "is it", "what", "your name is"]
        alone = [complete(p, 12)[0] for p in prompts]
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            together = list(pool.map(lambda p: complete(p, 12)[0], prompts))
        assert together == alone, (together, alone)
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            together = list(pool.map(lambda p: stream(p, 12), prompts))
        assert together == alone, (together, alone)

        # Bad requests: 400 with a message; the server serves on.
        for body in [b"{not json", b'{"prompt": 3}',
                     b'{"prompt": "hi", "max_tokens": "x"}',
                     b'{"prompt": "hi", "max_tokens": 100000}',
                     b'{"messages": "hi"}']:
            path = "/v1/chat/completions" if b"messages" in body \
                else "/v1/completions"
            status, reply = post(base, path, body)
            assert status == 400, (body, status, reply)
            assert reply["error"]["message"], reply
        assert complete("hello world")[0] == text
        print("serve ok")
    finally:
        server.terminate()
        server.wait(30)


if __name__ == "__main__":
    main()
