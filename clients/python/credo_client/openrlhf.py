"""An OpenRLHF remote reward model (``--remote_rm_url``) backed by credo serve.

Follows OpenRLHF v0.11.2: its rollout executor
(``openrlhf/utils/agent.py``, ``SingleTurnAgentExecutor._fetch_rewards_via_http``)
POSTs ``{"query": [...], "prompts": [...], "labels": [...]}`` to the URL
(``query`` is prompt and response decoded together, special tokens kept)
and reads ``rewards``, ``scores`` and ``extra_logs`` from the answer, as
its own ``openrlhf/cli/serve_rm.py`` writes them. This server answers
that request: each query's response (the query after its prompt, end
tokens stripped) is judged by credo's verifiers, ``rewards`` and
``scores`` are the weighted sums of its rewards' scores and
``extra_logs`` holds each reward's score (a skipped reward counts 0).
OpenRLHF takes one scalar per response, so its users get credo's
verifiers, not yet credo's token placement.

Labels (OpenRLHF's ``--label_key`` column) carry what the verifier needs:
a record of the format as a JSON object or string (ifeval, bfcl, sql,
gsm8k), a GSM8K answer string (``... #### 42``), or a prompt id for
format "task".

    credo serve &
    credo-openrlhf-rm --credo http://127.0.0.1:8700 --format gsm8k --port 5000
    # then: openrlhf.cli.train_ppo_ray ... --remote_rm_url http://127.0.0.1:5000/get_reward
"""

from __future__ import annotations

import argparse
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Mapping, Sequence

from .adapters.common import record_item
from .client import Client, CredoError

# End-of-turn strings a query may end with (OpenRLHF decodes with
# skip_special_tokens=False); verifiers judge the text before them.
END_TOKENS = ("<|im_end|>", "<|endoftext|>", "<|eot_id|>", "<|end_of_text|>", "</s>", "<eos>", "<|end|>")


class BadRequest(ValueError):
    def __init__(self, path: str, message: str) -> None:
        super().__init__(message)
        self.path = path


def response_of(query: str, prompt: str, end_tokens: Sequence[str] = END_TOKENS) -> str:
    """The response part of an OpenRLHF query: what follows the prompt, end tokens stripped."""
    if not query.startswith(prompt):
        at = query.rfind(prompt) if prompt else -1
        if at < 0:
            raise ValueError("the query does not contain its prompt")
        query = query[at:]
    text = query[len(prompt):]
    changed = True
    while changed:
        changed = False
        text = text.rstrip()
        for t in end_tokens:
            if t and text.endswith(t):
                text, changed = text[: -len(t)], True
    return text


class RewardModel:
    """Turns OpenRLHF's reward requests into credo verify requests."""

    def __init__(self, client: Client, fmt: str, rewards: Sequence[str] | None = None,
                 weights: Sequence[float] | None = None, end_tokens: Sequence[str] = END_TOKENS, **verify_kw: Any):
        self.client, self.fmt = client, fmt
        self.rewards = list(rewards) if rewards else None
        self.weights = list(weights) if weights else None
        self.end_tokens, self.verify_kw = tuple(end_tokens), verify_kw

    def __call__(self, body: Mapping[str, Any]) -> dict[str, Any]:
        queries, prompts, labels = body.get("query"), body.get("prompts"), body.get("labels")
        if not isinstance(queries, list) or not all(isinstance(q, str) for q in queries):
            raise BadRequest("query", "want a list of strings")
        n = len(queries)
        prompts = [""] * n if prompts is None else prompts
        labels = [None] * n if labels is None else labels
        for name, v in (("prompts", prompts), ("labels", labels)):
            if not isinstance(v, list) or len(v) != n:
                raise BadRequest(name, f"want a list of {n} entries, one per query")
        items: list[dict[str, Any]] = []
        where: list[tuple[int, int]] = []  # query -> (item, response)
        by_key: dict[str, int] = {}
        for i, (q, p, lab) in enumerate(zip(queries, prompts, labels)):
            try:
                resp = response_of(q, p if isinstance(p, str) else "", self.end_tokens)
                item = record_item(lab, self.fmt, p if isinstance(p, str) else "")
            except ValueError as e:
                raise BadRequest(f"query[{i}]" if "query" in str(e) else f"labels[{i}]", str(e)) from e
            key = json.dumps(item, sort_keys=True)
            j = by_key.setdefault(key, len(items))
            if j == len(items):
                items.append({**item, "responses": []})
            where.append((j, len(items[j]["responses"])))
            items[j]["responses"].append(resp)
        if not items:
            return {"rewards": [], "scores": [], "extra_logs": {}}
        out = self.client.verify(self.fmt, items, rewards=self.rewards, **self.verify_kw)
        names, weights = out["rewards"], self.weights or out["weights"]
        if len(weights) != len(names):
            raise BadRequest("", f"{len(weights)} weights for {len(names)} rewards {names}")
        totals, logs = [], {k: [] for k in names}
        for j, g in where:
            verdicts = out["items"][j]["responses"][g]["verdicts"]
            total = 0.0
            for k, v in enumerate(verdicts):
                s = 0.0 if v.get("skip") else float(v["score"])
                logs[names[k]].append(s)
                total += weights[k] * s
            totals.append(total)
        return {"rewards": totals, "scores": totals, "extra_logs": logs}


def make_server(model: RewardModel, host: str = "127.0.0.1", port: int = 0) -> ThreadingHTTPServer:
    """An HTTP server answering POST /get_reward with model (port 0 picks a free one)."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:  # quiet: OpenRLHF sends one request per rollout
            pass

        def _send(self, status: int, body: Mapping[str, Any]) -> None:
            data = json.dumps(body).encode("utf-8")
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:
            if self.path == "/healthz":
                self._send(200, {"status": "ok"})
            else:
                self._send(404, {"error": {"kind": "not_found", "path": "", "message": f"no endpoint {self.path}"}})

        def do_POST(self) -> None:
            if self.path != "/get_reward":
                self._send(404, {"error": {"kind": "not_found", "path": "", "message": f"no endpoint {self.path}"}})
                return
            try:
                n = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(n) or b"null")
                if not isinstance(body, dict):
                    raise BadRequest("", "the body must be a JSON object")
                self._send(200, model(body))
            except BadRequest as e:
                self._send(400, {"error": {"kind": "bad_request", "path": e.path, "message": str(e)}})
            except ValueError as e:
                self._send(400, {"error": {"kind": "bad_request", "path": "", "message": f"malformed JSON: {e}"}})
            except CredoError as e:
                self._send(e.status or 502, {"error": {"kind": e.kind, "path": e.path, "message": e.message}})

    return ThreadingHTTPServer((host, port), Handler)


def serve_in_thread(model: RewardModel, host: str = "127.0.0.1", port: int = 0) -> tuple[ThreadingHTTPServer, str]:
    """Starts the server on a daemon thread: (server, its /get_reward URL). server.shutdown() stops it."""
    srv = make_server(model, host, port)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    h, p = srv.server_address[:2]
    return srv, f"http://{h}:{p}/get_reward"


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="credo-openrlhf-rm", description=__doc__.split("\n\n")[0])
    ap.add_argument("--credo", default="http://127.0.0.1:8700", help="credo serve's URL")
    ap.add_argument("--api-key-env", default="", help="environment variable holding credo's API key")
    ap.add_argument("--format", required=True, help="verify format: ifeval, bfcl, gsm8k, sql or task")
    ap.add_argument("--task", default=None, help="for format task: the task")
    ap.add_argument("--rewards", default="", help="comma-separated rewards to judge (default: the format's)")
    ap.add_argument("--weights", default="", help="comma-separated weights, one per reward")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=5000)
    a = ap.parse_args(argv)
    import os

    key = os.environ.get(a.api_key_env) if a.api_key_env else None
    kw = {"task": a.task} if a.task else {}
    model = RewardModel(Client(a.credo, api_key=key), a.format,
                        rewards=[r for r in a.rewards.split(",") if r] or None,
                        weights=[float(w) for w in a.weights.split(",") if w] or None, **kw)
    srv = make_server(model, a.host, a.port)
    print(f"credo-openrlhf-rm: http://{a.host}:{srv.server_address[1]}/get_reward -> {a.credo}", flush=True)
    try:
        srv.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        srv.server_close()


if __name__ == "__main__":  # pragma: no cover
    main()
