#!/usr/bin/env python3
"""A verifier of your own for `credo train --verifier`: a regex reward with spans.

credo POSTs one JSON object per response,

    {"prompt_id": "...", "prompt": "...", "response": "...", "record": {...} or null}

and this server answers

    {"score": 1.0, "spans": [{"start": 0, "end": 3, "effect": "+"}], "info": "...", "reason": "..."}

The score is the share of the pattern's wanted matches found (at most
--want of them), the spans are the matches as byte ranges of the response
(credo counts bytes of UTF-8, Python counts characters: converted below),
and "info" states the rule, the block MRTPO replays prompts without.

Run:  python3 examples/verifier.py [PORT] [--pattern REGEX] [--want N]
It listens on 127.0.0.1 (PORT 0, the default, picks a free port) and prints
"listening on http://127.0.0.1:PORT/verify" once it is ready. GET /stats
answers {"requests": N, "score_sum": S} (what it has judged so far).
Then: credo train --verifier name=regex,url=http://127.0.0.1:PORT/verify ...

Standard library only; examples/test_verifier.py tests it (python3 -m pytest).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MAX_BODY = 16 << 20  # credo's requests are far smaller


def byte_offset(text: str, index: int) -> int:
    """The UTF-8 byte offset of character index in text."""
    return len(text[:index].encode("utf-8"))


def judge(response: str, pattern: re.Pattern[str], want: int) -> dict[str, Any]:
    """The verdict on one response: a share of want matches, with spans."""
    matches = [m for m in pattern.finditer(response) if m.end() > m.start()][:want]
    spans = [
        {"start": byte_offset(response, m.start()), "end": byte_offset(response, m.end()), "effect": "+"}
        for m in matches
    ]
    verdict: dict[str, Any] = {
        "score": len(matches) / want,
        "spans": spans,
        "info": f"Include {want} matches of the pattern {pattern.pattern}.",
    }
    if not matches:
        verdict["reason"] = f"no match of {pattern.pattern}"
    return verdict


class Stats:
    """What the server has judged, for GET /stats."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.requests = 0
        self.score_sum = 0.0

    def add(self, score: float) -> None:
        with self.lock:
            self.requests += 1
            self.score_sum += score

    def snapshot(self) -> dict[str, float]:
        with self.lock:
            return {"requests": self.requests, "score_sum": self.score_sum}


def make_handler(pattern: re.Pattern[str], want: int, stats: Stats) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def answer(self, code: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode("utf-8")
            self.send_response(code)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 (http.server's name)
            if self.path == "/stats":
                self.answer(200, stats.snapshot())
            else:
                self.answer(404, {"error": "POST /verify, or GET /stats"})

        def do_POST(self) -> None:  # noqa: N802
            try:
                n = int(self.headers.get("Content-Length", "0"))
            except ValueError:
                n = -1
            if n < 0 or n > MAX_BODY:
                self.answer(400, {"error": "a Content-Length of at most 16 MiB is required"})
                return
            try:
                req = json.loads(self.rfile.read(n))
                response = req["response"]
                if not isinstance(response, str):
                    raise TypeError("response is not a string")
            except (ValueError, KeyError, TypeError) as e:
                self.answer(400, {"error": f"want {{prompt, response, record}}: {e}"})
                return
            verdict = judge(response, pattern, want)
            stats.add(verdict["score"])
            self.answer(200, verdict)

        def log_message(self, format: str, *args: Any) -> None:  # quiet: one line per request is noise
            pass

    return Handler


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description="A regex verifier for credo train --verifier.")
    ap.add_argument("port", nargs="?", type=int, default=0, help="port on 127.0.0.1 (0: a free one)")
    ap.add_argument("--pattern", default=r"\be\w*", help="the regular expression rewarded (default: words starting with e)")
    ap.add_argument("--want", type=int, default=3, help="matches for a full score (default 3)")
    args = ap.parse_args(argv)
    if args.want < 1:
        ap.error("--want must be at least 1")
    try:
        pattern = re.compile(args.pattern)
    except re.error as e:
        ap.error(f"--pattern: {e}")
    server = ThreadingHTTPServer(("127.0.0.1", args.port), make_handler(pattern, args.want, Stats()))
    print(f"listening on http://127.0.0.1:{server.server_address[1]}/verify", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
