"""The HTTP client of ``credo serve`` (docs/SERVICE.md), on the standard library."""

from __future__ import annotations

import http.client
import json
import math
import threading
import urllib.parse
from dataclasses import dataclass, field
from typing import Any, Iterable, Mapping, Sequence

from .packing import pack, pack_offsets, unpack


class CredoError(Exception):
    """An error answer of credo serve (SERVICE.md §1), or a transport failure.

    kind is the server's error kind ("bad_request", "unauthorized", "busy",
    …; "transport" when no answer came, "client" for a request this client
    refuses to send); path names the field at fault ("responses[3].offsets[7]",
    "" for the body); status is the HTTP status (0 without an answer).
    """

    def __init__(self, kind: str, message: str, path: str = "", status: int = 0) -> None:
        self.kind, self.message, self.path, self.status = kind, message, path, status
        where = f" at {path}" if path else ""
        super().__init__(f"credo {kind}{where}: {message}" + (f" (HTTP {status})" if status else ""))


@dataclass
class Advantages:
    """The answer of /v1/advantages, its packed arrays decoded.

    advantages[i] holds response i's T_i token advantages (a numpy float64
    array with numpy installed, else an array.array); relevance, when asked
    for, maps each reward to N entries (an array or None).
    """

    method: str
    advantages: list[Sequence[float]]
    response_advantages: list[float]
    metrics: dict[str, float]
    relevance: dict[str, list[Sequence[float] | None]] | None = None
    raw: dict[str, Any] = field(default_factory=dict, repr=False)


def response(
    group: int | str,
    text: str,
    tokens: Any,
    offsets: Any,
    scores: Sequence[float] | None = None,
    verdicts: Sequence[Mapping[str, Any]] | None = None,
    prompt: str = "",
) -> dict[str, Any]:
    """One response of an advantages request (SERVICE.md §7), unpacked.

    tokens: T token ids; offsets: T (start, end) UTF-8 byte ranges of text;
    exactly one of scores (K floats) or verdicts (K verdicts of verify).
    """
    r: dict[str, Any] = {"group": group, "response": text, "tokens": tokens, "offsets": offsets}
    if prompt:
        r["prompt"] = prompt
    if scores is not None:
        r["scores"] = [float(s) for s in scores]
    if verdicts is not None:
        r["verdicts"] = list(verdicts)
    return r


def _packed_response(r: Mapping[str, Any], numpy: bool) -> dict[str, Any]:
    out = dict(r)
    if not isinstance(out.get("tokens"), str):
        out["tokens"] = pack(out.get("tokens", []), "int32", numpy=numpy)
    if not isinstance(out.get("offsets"), str):
        out["offsets"] = pack_offsets(out.get("offsets", []), numpy=numpy)
    return out


def _packed_answer(a: Mapping[str, Any], numpy: bool) -> dict[str, Any]:
    out = dict(a)
    if not isinstance(out.get("ids"), str):
        out["ids"] = pack(_flatten(out["ids"]), "int32", numpy=numpy)
    if not isinstance(out.get("logprobs"), str):
        out["logprobs"] = pack(_flatten(out["logprobs"]), "float32", numpy=numpy)
    return out


def _flatten(x: Any) -> Any:
    if hasattr(x, "reshape"):
        return x.reshape(-1)
    if x and isinstance(x[0], (list, tuple)):
        return [v for row in x for v in row]
    return x


class Client:
    """A client of credo serve at url (e.g. "http://127.0.0.1:8700").

    api_key is sent as ``Authorization: Bearer <key>``; timeout (seconds)
    bounds each request. One keep-alive connection per thread: a Client may
    be shared by threads. packed=True sends token ids, ranges and replay
    answers as base64 (SERVICE.md §1) and asks for base64 advantages.
    """

    def __init__(self, url: str, api_key: str | None = None, timeout: float = 120.0, packed: bool = True) -> None:
        u = urllib.parse.urlsplit(url)
        if u.scheme not in ("http", "https") or not u.hostname:
            raise ValueError(f"url {url!r}: want http://host:port")
        self.url, self.api_key, self.timeout, self.packed = url.rstrip("/"), api_key, timeout, packed
        self._scheme, self._host, self._port = u.scheme, u.hostname, u.port
        self._prefix = u.path.rstrip("/")
        self._local = threading.local()

    def __getstate__(self) -> dict[str, Any]:  # picklable (Ray, multiprocessing): connections stay behind
        d = self.__dict__.copy()
        d.pop("_local", None)
        return d

    def __setstate__(self, d: dict[str, Any]) -> None:
        self.__dict__.update(d)
        self._local = threading.local()

    # -- transport ---------------------------------------------------------

    def _conn(self) -> http.client.HTTPConnection:
        c = getattr(self._local, "conn", None)
        if c is None:
            cls = http.client.HTTPSConnection if self._scheme == "https" else http.client.HTTPConnection
            c = cls(self._host, self._port, timeout=self.timeout)
            self._local.conn = c
        return c

    def close(self) -> None:
        """Closes this thread's connection (others close when their thread ends)."""
        c = getattr(self._local, "conn", None)
        if c is not None:
            c.close()
            self._local.conn = None

    def __enter__(self) -> "Client":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def request(self, method: str, path: str, body: Any = None) -> Any:
        """Sends one request; returns the decoded JSON (or text for /metrics)."""
        data = None
        headers = {"Accept": "application/json"}
        if body is not None:
            try:
                data = json.dumps(body, allow_nan=False, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
            except ValueError as e:  # NaN or infinity: JSON cannot hold them (SERVICE.md §1)
                raise CredoError("client", f"the request holds a NaN or infinite number: {e}") from e
            headers["Content-Type"] = "application/json"
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        status, raw, ctype = self._send(method, self._prefix + path, data, headers)
        if status >= 400:
            raise _error(status, raw)
        if not ctype.startswith("application/json"):
            return raw.decode("utf-8")
        return json.loads(raw)

    def _send(self, method: str, path: str, data: bytes | None, headers: dict[str, str]) -> tuple[int, bytes, str]:
        for attempt in (0, 1):  # a kept-alive connection the server closed: reconnect once
            c = self._conn()
            try:
                c.request(method, path, body=data, headers=headers)
                r = c.getresponse()
                raw = r.read()
                if r.getheader("Connection", "").lower() == "close":
                    self.close()
                return r.status, raw, r.getheader("Content-Type", "")
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as e:
                self.close()
                if attempt == 1:
                    raise CredoError("transport", f"{method} {self.url}{path}: {e}") from e
            except OSError as e:
                self.close()
                raise CredoError("transport", f"{method} {self.url}{path}: {e}") from e
        raise AssertionError("unreachable")  # pragma: no cover

    # -- endpoints ---------------------------------------------------------

    def health(self) -> dict[str, Any]:
        """GET /healthz: {"status": "ok"}."""
        return self.request("GET", "/healthz")

    def metrics(self) -> str:
        """GET /metrics: Prometheus text."""
        return self.request("GET", "/metrics")

    def methods(self) -> dict[str, Any]:
        """GET /v1/methods (SERVICE.md §3)."""
        return self.request("GET", "/v1/methods")

    def tasks(self) -> dict[str, Any]:
        """GET /v1/tasks (SERVICE.md §4)."""
        return self.request("GET", "/v1/tasks")

    def prompts(
        self, task: str, count: int, seed: int = 0, difficulty: str = "", split: str = "train", start: int = 0
    ) -> dict[str, Any]:
        """POST /v1/prompts (SERVICE.md §5): credo's generated prompts."""
        body = {"task": task, "count": count, "seed": seed, "difficulty": difficulty, "split": split, "start": start}
        return self.request("POST", "/v1/prompts", body)

    def verify(
        self,
        format: str,
        items: Iterable[Mapping[str, Any]],
        rewards: Sequence[str] | None = None,
        task: str | None = None,
        seed: int | None = None,
        difficulty: str | None = None,
    ) -> dict[str, Any]:
        """POST /v1/verify (SERVICE.md §6): one verdict per (response, reward).

        items: [{"record": {...}, "responses": [...]}] for the record
        formats, [{"prompt_id": ..., "responses": [...]}] for format "task".
        """
        body: dict[str, Any] = {"format": format, "items": list(items)}
        for k, v in (("rewards", rewards), ("task", task), ("seed", seed), ("difficulty", difficulty)):
            if v is not None:
                body[k] = list(v) if k == "rewards" else v
        return self.request("POST", "/v1/verify", body)

    def _credit_body(self, method: str, responses: Iterable[Mapping[str, Any]], rewards: Sequence[str],
                     weights: Sequence[float] | None, config: Mapping[str, Any] | None, step: int | None,
                     seed: int | None, **kw: Any) -> dict:
        """The body /v1/advantages and /v1/replay-plan share (SERVICE.md §7), plus kw when not None."""
        rs = [_packed_response(r, True) for r in responses] if self.packed else [_plain(r) for r in responses]
        body: dict[str, Any] = {"method": method, "rewards": list(rewards), "responses": rs}
        kw.update(weights=None if weights is None else [float(w) for w in weights],
                  config=None if config is None else dict(config), step=step, seed=seed)
        for k, v in kw.items():
            if v is not None:
                body[k] = v
        return body

    def advantages(self, method: str, responses: Iterable[Mapping[str, Any]], rewards: Sequence[str],
                   weights: Sequence[float] | None = None, config: Mapping[str, Any] | None = None,
                   step: int | None = None, seed: int | None = None, return_relevance: bool = False,
                   replay: Mapping[str, Any] | None = None,
                   influence: Sequence[Mapping[str, Any]] | None = None) -> Advantages:
        """POST /v1/advantages (SERVICE.md §7): per-token advantages."""
        if replay is not None and self.packed:
            replay = dict(replay)
            replay["answers"] = [_packed_answer(a, True) for a in replay.get("answers", [])]
        body = self._credit_body(
            method, responses, rewards, weights, config, step, seed,
            encoding="base64" if self.packed else "json",
            return_relevance=return_relevance or None,
            replay=replay,
            influence=None if influence is None else list(influence),
        )
        out = self.request("POST", "/v1/advantages", body)
        return _decode_advantages(out)

    def replay_plan(self, method: str, responses: Iterable[Mapping[str, Any]], rewards: Sequence[str],
                    weights: Sequence[float] | None = None, config: Mapping[str, Any] | None = None,
                    step: int | None = None, seed: int | None = None) -> dict[str, Any]:
        """POST /v1/replay-plan (SERVICE.md §8): the sequences MRTPO needs scored.

        Its body is exactly advantages' (without replay), so the same batch
        and settings go to both.
        """
        body = self._credit_body(method, responses, rewards, weights, config, step, seed)
        return self.request("POST", "/v1/replay-plan", body)


def _plain(r: Mapping[str, Any]) -> dict[str, Any]:
    """A response with its arrays as JSON lists (packed=False)."""
    out = dict(r)
    for k in ("tokens", "offsets"):
        v = out.get(k)
        if hasattr(v, "tolist"):
            out[k] = v.tolist()
        elif v is not None and not isinstance(v, str):
            out[k] = [list(x) if isinstance(x, tuple) else x for x in v]
    return out


def _vec(v: Any) -> Sequence[float]:
    if isinstance(v, str):
        return unpack(v, "float64")
    return v


def _decode_advantages(out: Mapping[str, Any]) -> Advantages:
    rel = out.get("relevance")
    relevance = None
    if rel is not None:
        relevance = {k: [None if x is None else _vec(x) for x in v] for k, v in rel.items()}
    metrics = {k: float(v) if v is not None else math.nan for k, v in (out.get("metrics") or {}).items()}
    return Advantages(
        method=out.get("method", ""),
        advantages=[_vec(a) for a in out["advantages"]],
        response_advantages=[float(a) for a in out.get("response_advantages", [])],
        metrics=metrics,
        relevance=relevance,
        raw=dict(out),
    )


def _error(status: int, raw: bytes) -> CredoError:
    try:
        e = json.loads(raw)["error"]
        return CredoError(str(e.get("kind", "")), str(e.get("message", "")), str(e.get("path", "")), status)
    except (ValueError, KeyError, TypeError, AttributeError):
        text = raw.decode("utf-8", "replace")[:500]
        return CredoError("http", f"HTTP {status} without a credo error body: {text!r}", "", status)
