"""Bad requests raise CredoError with the server's kind, field path and message."""

from __future__ import annotations

import pytest

from conftest import Server
from credo_client import Client, CredoError, response


def _one(**kw):
    r = response(0, "ab", [1, 2], [(0, 1), (1, 2)], scores=[1.0])
    r.update(kw)
    return r


def _raises(fn, kind="bad_request", status=400):
    with pytest.raises(CredoError) as e:
        fn()
    assert e.value.kind == kind and e.value.status == status, e.value
    assert e.value.message
    return e.value


def test_unknown_method(client):
    e = _raises(lambda: client.advantages("nosuch", [_one()], rewards=["r"]))
    assert e.path == "method" and "nosuch" in e.message


def test_ranges_that_disagree_with_tokens(client):
    e = _raises(lambda: client.advantages("span", [_one(offsets=[(0, 1)])], rewards=["r"]))
    assert e.path.startswith("responses[0].offsets"), e
    e = _raises(lambda: client.advantages("span", [_one(offsets=[(0, 1), (1, 9)])], rewards=["r"]))
    assert e.path.startswith("responses[0].offsets"), e


def test_scores_per_reward(client):
    e = _raises(lambda: client.advantages("gdpo", [_one(scores=[1.0, 0.0])], rewards=["r"]))
    assert e.path.startswith("responses[0].scores"), e


def test_nan_is_refused_before_sending(client):
    e = _raises(lambda: client.advantages("gdpo", [_one(scores=[float("nan")])], rewards=["r"]), "client", 0)
    assert "NaN" in e.message


def test_verify_errors_name_their_field(client):
    e = _raises(lambda: client.verify("nosuch", [{"record": {}, "responses": ["x"]}]))
    assert e.path == "format"
    e = _raises(lambda: client.verify("gsm8k", [{"record": {"question": "q"}, "responses": ["x"]}]))
    assert e.path.startswith("items[0].record"), e
    e = _raises(lambda: client.verify("gsm8k", [{"record": {"question": "q", "answer": "#### 3"}, "responses": ["x"]}],
                                      rewards=["nosuch"]))
    assert e.path.startswith("rewards"), e


def test_unknown_field_and_endpoint(client):
    e = _raises(lambda: client.request("POST", "/v1/advantages", {"method": "gdpo", "bogus": 1}))
    assert "bogus" in e.path + e.message
    _raises(lambda: client.request("GET", "/v1/nosuch"), "not_found", 404)
    _raises(lambda: client.request("GET", "/v1/verify"), "method_not_allowed", 405)


def test_api_key(credo_bin):
    s = Server(credo_bin, "--api-key-env", "CREDO_TEST_KEY", env={"CREDO_TEST_KEY": "s3cret"})
    try:
        assert Client(s.url).health()["status"] == "ok"  # /healthz needs no key
        e = _raises(lambda: Client(s.url).methods(), "unauthorized", 401)
        assert e.message
        _raises(lambda: Client(s.url, api_key="wrong").methods(), "unauthorized", 401)
        assert Client(s.url, api_key="s3cret").methods()["methods"]
    finally:
        assert s.stop() == 0  # SIGTERM: a clean exit
