"""Tests of examples/verifier.py: python3 -m pytest examples/test_verifier.py"""

from __future__ import annotations

import json
import re
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from http.server import ThreadingHTTPServer

import pytest

import verifier


@pytest.mark.parametrize(
    ("response", "want", "score", "spans"),
    [
        ("eat every egg", 3, 1.0, [(0, 3), (4, 9), (10, 13)]),
        ("héllo eel", 2, 0.5, [(7, 10)]),  # é is two bytes: offsets count UTF-8 bytes
        ("nothing", 1, 0.0, []),
    ],
)
def test_judge(response: str, want: int, score: float, spans: list[tuple[int, int]]) -> None:
    v = verifier.judge(response, re.compile(r"\be\w*"), want)
    assert v["score"] == score
    assert [(s["start"], s["end"]) for s in v["spans"]] == spans
    assert all(s["effect"] == "+" for s in v["spans"])
    assert ("reason" in v) == (not spans)
    raw = response.encode("utf-8")
    for start, end in spans:
        assert raw[start:end].decode("utf-8").startswith("e")


@pytest.fixture
def url() -> Iterator[str]:
    stats = verifier.Stats()
    server = ThreadingHTTPServer(("127.0.0.1", 0), verifier.make_handler(re.compile("a"), 2, stats))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def post(url: str, body: bytes) -> tuple[int, dict]:
    req = urllib.request.Request(url + "/verify", data=body, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=5) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_server(url: str) -> None:
    code, v = post(url, json.dumps({"prompt": "p", "response": "banana", "record": None}).encode())
    assert code == 200 and v["score"] == 1.0 and v["spans"][0] == {"start": 1, "end": 2, "effect": "+"}
    for bad in [b"not json", b'{"prompt": "p"}', b'{"response": 3}']:
        code, v = post(url, bad)
        assert code == 400 and "want {prompt, response, record}" in v["error"]
    with urllib.request.urlopen(url + "/stats", timeout=5) as r:
        assert json.loads(r.read()) == {"requests": 1, "score_sum": 1.0}
