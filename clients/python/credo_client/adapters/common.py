"""What the engine adapters share: sampled responses in, credo's credit out.

``Credo`` holds the service's address and the run's credit settings
(format of the records, method, rewards, weights, config overrides);
``Credo.credit(samples, step)`` sends one verify request and one
advantages request for a batch and returns every response's verdicts,
weighted reward and per-token advantages.

Settings may come from the environment, so an engine launched from a
config file needs only a service address: CREDO_URL (default
http://127.0.0.1:8700), CREDO_API_KEY, CREDO_FORMAT, CREDO_TASK,
CREDO_METHOD (default span), CREDO_REWARDS and CREDO_WEIGHTS
(comma-separated), CREDO_CONFIG (a JSON object of credit.Config
overrides).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..client import Advantages, Client, response
from ..offsets import Range

DEFAULT_URL = "http://127.0.0.1:8700"


@dataclass
class Sample:
    """One sampled response: its group, text, token ids and their byte ranges,
    and the verify item it answers ({"record": {...}} or {"prompt_id": ...})."""

    group: int | str
    text: str
    tokens: list[int]
    offsets: list[Range]
    item: dict[str, Any]
    prompt: str = ""  # the replay base, when the trainer knows it (else verify's)


@dataclass
class Credit:
    """A batch's verdicts and credit, in the order of its samples."""

    rewards: list[str]
    weights: list[float]
    verdicts: list[list[dict[str, Any]]]
    totals: list[float]  # Σ_k weight_k · score_k (skipped rewards count 0)
    advantages: Advantages | None = None
    prompts: list[str] = field(default_factory=list)

    def scores(self, skipped: float = 0.0) -> list[list[float]]:
        """Per response, each reward's score (skipped ones as `skipped`, e.g. NaN)."""
        return [[skipped if v.get("skip") else float(v["score"]) for v in row] for row in self.verdicts]


def record_item(record: Any, fmt: str, prompt: str = "") -> dict[str, Any]:
    """A verify item (without responses) from what a dataset row holds.

    record: a record of the format (a dict, or its JSON text); for gsm8k
    also the answer alone: a worked solution ("... #### 42") or the bare
    number, as a string or a number (verl's GSM8K preprocessing writes
    ground_truth "18"); a prompt id for format "task".
    """
    if fmt == "task":
        if isinstance(record, Mapping) and "prompt_id" in record:
            return {"prompt_id": str(record["prompt_id"])}
        if not isinstance(record, str) or not record:
            raise ValueError("format task needs a prompt id")
        return {"prompt_id": record}
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except ValueError:
            if fmt != "gsm8k":
                raise ValueError(f"not a JSON {fmt} record: {record[:80]!r}") from None
            record = {"question": prompt, "answer": record}
    if fmt == "gsm8k" and isinstance(record, (int, float, str)) and not isinstance(record, bool):
        record = {"question": prompt, "answer": record}  # the answer alone: the service reads "18" or 18
    if not isinstance(record, Mapping):
        raise ValueError(f"a {fmt} record must be an object, got {type(record).__name__}")
    return {"record": dict(record)}


def _env_list(name: str) -> list[str] | None:
    v = os.environ.get(name, "")
    return [x.strip() for x in v.split(",") if x.strip()] or None


class Credo:
    """credo serve's address and a run's credit settings (see the module doc)."""

    def __init__(
        self,
        url: str | None = None,
        format: str | None = None,
        method: str | None = None,
        rewards: Sequence[str] | None = None,
        weights: Sequence[float] | None = None,
        config: Mapping[str, Any] | None = None,
        task: str | None = None,
        seed: int | None = None,
        difficulty: str | None = None,
        api_key: str | None = None,
        client: Client | None = None,
        replay: Callable[[dict[str, Any], list[dict[str, Any]]], list[dict[str, Any]]] | None = None,
    ) -> None:
        self.url = url or os.environ.get("CREDO_URL") or DEFAULT_URL
        self.format = format or os.environ.get("CREDO_FORMAT") or "gsm8k"
        self.method = method or os.environ.get("CREDO_METHOD") or "span"
        self.rewards = list(rewards) if rewards else _env_list("CREDO_REWARDS")
        w = list(weights) if weights else _env_list("CREDO_WEIGHTS")
        self.weights = [float(x) for x in w] if w else None
        self.config = dict(config) if config is not None else json.loads(os.environ.get("CREDO_CONFIG") or "{}")
        self.task = task or os.environ.get("CREDO_TASK")
        self.seed, self.difficulty = seed, difficulty
        self.client = client or Client(self.url, api_key=api_key or os.environ.get("CREDO_API_KEY"))
        self.replay = replay  # for mrtpo: (plan, responses) -> answers, scored by the trainer's engine

    def settings(self) -> dict[str, Any]:
        """What a copy in another process needs (Credo(**settings))."""
        return {"url": self.url, "format": self.format, "method": self.method, "rewards": self.rewards,
                "weights": self.weights, "config": self.config, "task": self.task, "seed": self.seed,
                "difficulty": self.difficulty}

    def reward_names(self) -> list[str]:
        """The rewards this run judges: the given ones, else the format's (GET /v1/tasks)."""
        if self.rewards:
            return list(self.rewards)
        for f in self.client.tasks()["formats"]:
            if f["name"] == self.format:
                if self.format == "task":
                    for t in self.client.tasks()["tasks"]:
                        if t["name"] == self.task:
                            return list(t["rewards"])
                    raise ValueError(f"no task {self.task!r} on the server")
                return list(f["rewards"])
        raise ValueError(f"the server has no verify format {self.format!r}")

    def _verify_kw(self) -> dict[str, Any]:
        kw: dict[str, Any] = {}
        if self.format == "task":
            kw = {"task": self.task, "seed": self.seed, "difficulty": self.difficulty}
        return kw

    def verify(self, samples: Sequence[Sample]) -> Credit:
        """One verify request for the batch: items group the samples by (group, item)."""
        items: list[dict[str, Any]] = []
        where: list[tuple[int, int]] = []
        index: dict[str, int] = {}
        for s in samples:
            key = json.dumps([s.group, s.item], sort_keys=True, default=str)
            j = index.setdefault(key, len(items))
            if j == len(items):
                items.append({**s.item, "responses": []})
            where.append((j, len(items[j]["responses"])))
            items[j]["responses"].append(s.text)
        if not items:
            return Credit(self.rewards or [], self.weights or [], [], [])
        out = self.client.verify(self.format, items, rewards=self.rewards, **self._verify_kw())
        names = list(out["rewards"])
        weights = self.weights or [float(w) for w in out["weights"]]
        if len(weights) != len(names):
            raise ValueError(f"{len(weights)} weights for the rewards {names}")
        verdicts, totals, prompts = [], [], []
        for (j, g), s in zip(where, samples):
            row = out["items"][j]["responses"][g]["verdicts"]
            verdicts.append(row)
            totals.append(sum(w * (0.0 if v.get("skip") else float(v["score"])) for w, v in zip(weights, row)))
            prompts.append(s.prompt or out["items"][j].get("replay_base", ""))
        return Credit(names, weights, verdicts, totals, prompts=prompts)

    def wire(self, samples: Sequence[Sample], credit: Credit) -> list[dict[str, Any]]:
        """The advantages request's responses for verified samples."""
        return [response(s.group, s.text, s.tokens, s.offsets, verdicts=v, prompt=p)
                for s, v, p in zip(samples, credit.verdicts, credit.prompts)]

    def advantages(self, samples: Sequence[Sample], credit: Credit, step: int = 0) -> Advantages:
        """One advantages request (and, for methods that need replay, a plan and the trainer's scoring)."""
        rs = self.wire(samples, credit)
        kw = dict(method=self.method, responses=rs, rewards=credit.rewards, weights=credit.weights,
                  config=self.config or None, step=step, seed=self.seed)
        if "mrtpo" in self.method.split("+"):
            if self.replay is None:
                raise ValueError(f"method {self.method} needs replay: give Credo(replay=...) the engine's scorer")
            plan = self.client.replay_plan(**kw)
            kw["replay"] = {"plan": plan["plan"], "answers": self.replay(plan, rs)}
        return self.client.advantages(**kw)

    def credit(self, samples: Sequence[Sample], step: int = 0) -> Credit:
        """Verify, then credit, a batch."""
        c = self.verify(samples)
        if samples:
            c.advantages = self.advantages(samples, c, step)
        return c
