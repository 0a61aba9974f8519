"""An OpenAI-compatible server for a folder `python -m mlxc.lm export` wrote:
/v1/models, /v1/completions and /v1/chat/completions (streaming as
server-sent events), on aiohttp.

One worker thread runs the compiled steps. Up to --max-batch requests hold a
slot (their own cache arrays) at once; the worker takes one step of each in
turn, so requests join and leave between steps and a long one does not hold
the others back. Each request's steps are its own (the batch-1 steps of
export), so its greedy output does not depend on the others. Requests past
the slots wait in a bounded queue; past the queue they get a 429. Sampling
is greedy (temperature 0): a request that asks for more gets a 400."""

import asyncio
import json
import queue
import threading
import time
import uuid

from . import lm_text

# Fields a request may carry, with the types they must have.
_NUMBER = (int, float)
_COMMON = {"model": str, "max_tokens": int, "stream": bool,
           "temperature": _NUMBER, "top_p": _NUMBER, "seed": int,
           "stop": (str, list), "n": int, "user": str,
           "stream_options": dict, "max_completion_tokens": int}


class BadRequest(Exception):
    pass


def _check(body, required):
    """The request's fields, checked (BadRequest names what is wrong)."""
    if not isinstance(body, dict):
        raise BadRequest("the body must be a JSON object")
    fields = dict(_COMMON, **required)
    for key, value in body.items():
        want = fields.get(key)
        if want is None:
            continue  # Unknown fields are ignored, as OpenAI's clients send
        if value is None:
            continue
        if isinstance(value, bool) and want is not bool and \
                want is not _NUMBER:
            raise BadRequest(f"'{key}' must be {_name(want)}")
        if not isinstance(value, want):
            raise BadRequest(f"'{key}' must be {_name(want)}")
    for key in required:
        if body.get(key) is None:
            raise BadRequest(f"'{key}' is required")
    if body.get("n") not in (None, 1):
        raise BadRequest("only n = 1 is served")
    t = body.get("temperature")
    if t is not None and t != 0:
        raise BadRequest("only greedy sampling (temperature 0) is served "
                         "by this build")
    stop = body.get("stop")
    if isinstance(stop, str):
        stop = [stop]
    if stop is not None and not all(isinstance(s, str) for s in stop):
        raise BadRequest("'stop' must be a string or a list of strings")
    return stop or []


def _name(want):
    names = {str: "a string", int: "an integer", bool: "a boolean",
             dict: "an object", list: "a list"}
    if isinstance(want, tuple):
        return " or ".join("a number" if w is float else names[w]
                           for w in want if not (w is int and float in want))
    return names[want]


class _Request:
    def __init__(self, ids, max_tokens, stop, loop):
        self.ids, self.max_tokens, self.stop = ids, max_tokens, stop
        self.loop = loop
        self.out = asyncio.Queue()  # (piece, done reason or None)
        self.cancelled = False


class Server:
    def __init__(self, out_dir, max_batch=8, max_queue=64, device="auto",
                 memory="auto", libcublaslt=None):
        from .lm import Generator
        self.name = out_dir.rstrip("/").split("/")[-1]
        self.tokenizer = lm_text.Tokenizer(out_dir)
        self.gen = Generator(out_dir, device=device, memory=memory,
                             libcublaslt=libcublaslt)
        self.max_batch = max_batch
        self.pending = queue.Queue(maxsize=max_queue)
        self.worker = threading.Thread(target=self._work, daemon=True)
        self.worker.start()

    # The worker: one step of each active request in turn.
    def _work(self):
        active = []
        while True:
            while len(active) < self.max_batch:
                try:
                    req = self.pending.get(block=not active)
                except queue.Empty:
                    break
                if req.cancelled:
                    continue
                text = lm_text.stream_text(
                    self.tokenizer, self.gen.stream(req.ids, req.max_tokens),
                    req.stop)
                active.append((req, text, [0]))
            for entry in list(active):
                req, text, count = entry
                if req.cancelled:  # The client left: its slot is free.
                    active.remove(entry)
                    continue
                try:
                    piece, token = next(text)
                    if token is not None:
                        count[0] += 1
                    self._send(req, piece, None)
                except StopIteration as stop:
                    reason = stop.value or "length"
                    self._send(req, "", (reason, count[0]))
                    active.remove(entry)
                except Exception as e:  # Reported to the request alone.
                    self._send(req, "", ("error", str(e)))
                    active.remove(entry)

    def _send(self, req, piece, done):
        req.loop.call_soon_threadsafe(req.out.put_nowait, (piece, done))

    def _admit(self, ids, max_tokens, stop):
        if not ids:
            raise BadRequest("the prompt is empty")
        if max_tokens < 1:
            raise BadRequest("'max_tokens' must be at least 1")
        limit = self.gen.max_len
        P = self.gen.prefill_len
        padded = -(-len(ids) // P) * P
        if limit is not None and \
                max(padded, len(ids) + max_tokens - 1) > limit:
            raise BadRequest(
                f"{len(ids)} prompt tokens and max_tokens {max_tokens} do "
                f"not fit the cache of {limit} tokens")
        bad = [t for t in ids if not 0 <= t < self.gen.vocab_size]
        if bad:
            raise BadRequest(f"token {bad[0]} is not in the vocabulary")
        req = _Request(ids, max_tokens, stop, asyncio.get_running_loop())
        try:
            self.pending.put_nowait(req)
        except queue.Full:
            return None
        return req

    # HTTP.
    async def models(self, request):
        from aiohttp import web
        return web.json_response({"object": "list", "data": [
            {"id": self.name, "object": "model", "owned_by": "mlxc",
             "created": int(time.time())}]})

    async def completions(self, request):
        return await self._complete(request, chat=False)

    async def chat(self, request):
        return await self._complete(request, chat=True)

    async def _complete(self, request, chat):
        from aiohttp import web

        def error(status, message):
            return web.json_response(
                {"error": {"message": message, "type":
                           "invalid_request_error" if status == 400
                           else "server_error"}}, status=status)
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            return error(400, "the body is not valid JSON")
        try:
            stop = _check(body, {"messages": list} if chat
                          else {"prompt": (str, list)})
            max_tokens = body.get("max_tokens") or \
                body.get("max_completion_tokens") or 16
            if chat:
                messages = body["messages"]
                if not all(isinstance(m, dict) and
                           isinstance(m.get("content"), str) and
                           isinstance(m.get("role"), str) for m in messages):
                    raise BadRequest("each message needs a string 'role' "
                                     "and 'content'")
                ids = self.tokenizer.encode(messages, chat=True)
            else:
                prompt = body["prompt"]
                if isinstance(prompt, list):
                    if not all(isinstance(t, int) and
                               not isinstance(t, bool) for t in prompt):
                        raise BadRequest("a list prompt must be token ids")
                    ids = prompt
                else:
                    ids = self.tokenizer.encode(prompt)
            req = self._admit(ids, max_tokens, stop)
        except BadRequest as e:
            return error(400, str(e))
        except ValueError as e:  # From the tokenizer (no chat template, ...)
            return error(400, str(e))
        if req is None:
            return error(429, "the queue is full; try again later")
        rid = ("chatcmpl-" if chat else "cmpl-") + uuid.uuid4().hex[:24]
        created = int(time.time())
        kind = "chat.completion" if chat else "text_completion"

        def choice(text, reason, delta=False):
            if not chat:
                return {"index": 0, "text": text, "finish_reason": reason,
                        "logprobs": None}
            msg = {"content": text} if delta else \
                {"role": "assistant", "content": text}
            return {"index": 0, "finish_reason": reason,
                    "delta" if delta else "message": msg}

        def usage(n):
            return {"prompt_tokens": len(ids), "completion_tokens": n,
                    "total_tokens": len(ids) + n}

        try:
            if not body.get("stream"):
                text = []
                while True:
                    piece, done = await req.out.get()
                    text.append(piece)
                    if done:
                        break
                if done[0] == "error":
                    return error(500, done[1])
                return web.json_response({
                    "id": rid, "object": kind, "created": created,
                    "model": self.name,
                    "choices": [choice("".join(text), done[0])],
                    "usage": usage(done[1])})
            resp = web.StreamResponse(headers={
                "Content-Type": "text/event-stream",
                "Cache-Control": "no-cache"})
            await resp.prepare(request)
            obj = kind + ".chunk" if chat else kind

            async def event(data):
                await resp.write(f"data: {json.dumps(data)}\n\n".encode())
            if chat:
                await event({"id": rid, "object": obj, "created": created,
                             "model": self.name, "choices": [
                                 {"index": 0, "finish_reason": None,
                                  "delta": {"role": "assistant",
                                            "content": ""}}]})
            while True:
                piece, done = await req.out.get()
                if done and done[0] == "error":
                    break
                if piece or done:
                    await event({"id": rid, "object": obj,
                                 "created": created, "model": self.name,
                                 "choices": [choice(piece, done and done[0],
                                                    delta=True)]})
                if done:
                    if (body.get("stream_options") or {}).get(
                            "include_usage"):
                        await event({"id": rid, "object": obj,
                                     "created": created, "model": self.name,
                                     "choices": [], "usage": usage(done[1])})
                    break
            await resp.write(b"data: [DONE]\n\n")
            await resp.write_eof()
            return resp
        finally:
            # A client that left (the handler cancelled) frees its slot.
            req.cancelled = True

    def app(self):
        from aiohttp import web
        app = web.Application(client_max_size=8 << 20)
        app.add_routes([web.get("/v1/models", self.models),
                        web.post("/v1/completions", self.completions),
                        web.post("/v1/chat/completions", self.chat)])
        return app


def serve(out_dir, host="127.0.0.1", port=8080, max_batch=8, max_queue=64,
          device="auto", memory="auto", libcublaslt=None):
    try:
        from aiohttp import web
    except ImportError:
        raise ImportError("serve needs aiohttp: pip install aiohttp")
    server = Server(out_dir, max_batch=max_batch, max_queue=max_queue,
                    device=device, memory=memory, libcublaslt=libcublaslt)
    print(f"serving {out_dir} on http://{host}:{port}/v1", flush=True)
    web.run_app(server.app(), host=host, port=port, print=None)
