package service

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/credit/topk"
)

// small is a valid span request of two groups of two responses, two rewards.
func small(t *testing.T) map[string]any {
	var body map[string]any
	err := json.Unmarshal([]byte(`{"method": "span", "rewards": ["a", "b"], "step": 3, "responses": [
	 {"group": 0, "prompt": "P", "response": "héllo", "tokens": [5, 6, 7], "offsets": [[0, 2], [2, 3], [3, 6]], "verdicts": [{"score": 1, "info": "A", "spans": [{"start": 0, "end": 3}]}, {"score": 0, "info": "B"}]},
	 {"group": 0, "prompt": "P", "response": "yo", "tokens": [8], "offsets": [[0, 2]], "scores": [0, 1]},
	 {"group": "g", "prompt": "Q", "response": "", "tokens": [], "offsets": [], "scores": [1, 1]},
	 {"group": "g", "prompt": "Q", "response": "ok", "tokens": [9, 2], "offsets": [[0, 1], [1, 2]], "scores": [0, 1]}]}`), &body)
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// set changes the value at a dotted path of a decoded JSON body
// ("responses.1.scores"); the value nil deletes the key.
func set(t *testing.T, body map[string]any, path string, v any) map[string]any {
	raw, _ := json.Marshal(body)
	var out map[string]any
	json.Unmarshal(raw, &out)
	parts := strings.Split(path, ".")
	var cur any = out
	for i, p := range parts {
		last := i == len(parts)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				if v == nil {
					delete(c, p)
				} else {
					c[p] = v
				}
				return out
			}
			cur = c[p]
		case []any:
			var j int
			json.Unmarshal([]byte(p), &j)
			if last {
				c[j] = v
				return out
			}
			cur = c[j]
		default:
			t.Fatalf("path %s: %T at %s", path, cur, p)
		}
	}
	return out
}

type errorCase struct {
	name   string
	body   any
	status int
	path   string
	msg    string // a part of the message
}

func runErrorCases(t *testing.T, endpoint string, o Options, cases []errorCase) {
	t.Helper()
	_, hs := newServer(t, o)
	for _, c := range cases {
		status, got := post(t, hs, endpoint, c.body)
		e, _ := got["error"].(map[string]any)
		if status != c.status || e == nil || e["path"] != c.path || !strings.Contains(e["message"].(string), c.msg) {
			t.Errorf("%s: %d %v, want %d at %q with %q", c.name, status, got, c.status, c.path, c.msg)
		}
	}
}

func TestAdvantagesErrors(t *testing.T) {
	b := small(t)
	mrtpo := set(t, set(t, b, "method", "mrtpo"), "config", map[string]any{"replay_warmup_steps": 0})
	cases := []errorCase{
		{"not JSON", `{"method": `, 400, "method", "want a string"},
		{"trailing data", `{"method": "span"} x`, 400, "", "after the JSON object"},
		{"not an object", `[1]`, 400, "", "want an object"},
		{"unknown field", set(t, b, "bogus", 1), 400, "bogus", "unknown field"},
		{"duplicate key", `{"method": "span", "method": "gdpo"}`, 400, "", "given twice"},
		{"unknown method", set(t, b, "method", "nope"), 400, "method", "unknown credit method"},
		{"variant that does not apply", set(t, b, "method", "gdpo+shuffle"), 400, "method", "does not apply"},
		{"unknown config key", set(t, b, "config", map[string]any{"betta": 1}), 400, "config", "betta"},
		{"invalid config", set(t, b, "config", map[string]any{"beta": 2}), 400, "config", "beta"},
		{"no rewards", set(t, b, "rewards", nil), 400, "rewards", "required"},
		{"reward twice", set(t, b, "rewards", []string{"a", "a"}), 400, "rewards[1]", "twice"},
		{"weights", set(t, b, "weights", []float64{1}), 400, "weights", "1 weights for 2 rewards"},
		{"scores per reward", set(t, b, "responses.1.scores", []float64{1}), 400, "responses[1].scores", "1 scores for 2 rewards"},
		{"verdicts per reward", set(t, b, "responses.0.verdicts", []any{map[string]any{"score": 1}}), 400, "responses[0].verdicts", "1 verdicts for 2 rewards"},
		{"infinite score", strings.Replace(mustJSON(b), `"scores":[0,1]`, `"scores":[0,1e999]`, 1), 400, "responses[1].scores[1]", "not a finite"},
		{"ranges per token", set(t, b, "responses.0.offsets", [][2]int{{0, 1}}), 400, "responses[0].offsets", "1 ranges for 3 tokens"},
		{"range outside", set(t, b, "responses.0.offsets.2", []int{3, 7}), 400, "responses[0].offsets[2]", "not within the response (6 bytes"},
		{"range backwards", set(t, b, "responses.3.offsets.0", []int{1, 0}), 400, "responses[3].offsets[0]", "not within"},
		{"pair of three", set(t, b, "responses.3.offsets.0", []int{0, 1, 2}), 400, "responses[3].offsets[0][2]", "pair"},
		{"span outside", set(t, b, "responses.0.verdicts.0.spans.0.end", 9), 400, "responses[0].verdicts[0].spans[0]", "not within"},
		{"span effect", set(t, b, "responses.0.verdicts.0.spans.0.effect", "up"), 400, "responses[0].verdicts[0].spans[0].effect", "want"},
		{"negative strength", set(t, b, "responses.0.verdicts.0.spans.0.strength", -0.5), 400, "responses[0].verdicts[0].spans[0].strength", ">= 0"},
		{"span without end", set(t, b, "responses.0.verdicts.0.spans.0.end", nil), 400, "responses[0].verdicts[0].spans[0]", "needs start and end"},
		{"verdict without score", set(t, b, "responses.0.verdicts.1.score", nil), 400, "responses[0].verdicts[1]", "needs a score"},
		{"negative token", set(t, b, "responses.0.tokens.1", -4), 400, "responses[0].tokens[1]", "outside"},
		{"bad base64", set(t, b, "responses.0.tokens", "!!!"), 400, "responses[0].tokens", "base64"},
		{"base64 not whole", set(t, b, "responses.0.tokens", "AAA="), 400, "responses[0].tokens", "whole 4-byte"},
		{"float group", set(t, b, "responses.0.group", 1.5), 400, "responses[0].group", "integer"},
		{"scores and verdicts", set(t, b, "responses.0.scores", []float64{1, 0}), 400, "responses[0]", "not both"},
		{"no scores", set(t, b, "responses.1.scores", nil), 400, "responses[1].scores", "required"},
		{"no response", set(t, b, "responses.1.response", nil), 400, "responses[1].response", "required"},
		{"no offsets", set(t, b, "responses.1.offsets", nil), 400, "responses[1].offsets", "required"},
		{"lone surrogate", strings.Replace(mustJSON(b), `"yo"`, `"y\ud800"`, 1), 400, "responses[1].response", "surrogate"},
		{"invalid escape", strings.Replace(mustJSON(b), `"yo"`, `"y\q"`, 1), 400, "responses[1].response", "escape"},
		{"bad encoding", set(t, b, "encoding", "hex"), 400, "encoding", "base64"},
		{"negative step", set(t, b, "step", -1), 400, "step", "outside"},
		{"replay for span", set(t, b, "replay", map[string]any{"answers": []any{}}), 400, "replay", "does not replay"},
		{"influence for span", set(t, b, "influence", []any{}), 400, "influence", "influences for 4 responses"},
		{"mrtpo without replay", mrtpo, 400, "replay", "required by mrtpo"},
		{"mrtpo answers count", set(t, mrtpo, "replay", map[string]any{"answers": []any{}}), 400, "replay.answers", "0 answers for the 3 requests"},
		{"p2t without influence", set(t, b, "method", "p2t"), 400, "influence", "no PRM"},
		{"too many tokens", set(t, b, "responses.0.tokens", make([]int, maxTokens+1)), 413, "responses[0].tokens", "more than 65536"},
		{"empty body", ``, 400, "", "want an object"},
		{"BOM alone", "\uFEFF", 400, "", "want an object"},
	}
	runErrorCases(t, "/v1/advantages", Options{}, cases)
}

// A UTF-8 byte order mark before a body is read past: the same request
// with and without one gets the same answer.
func TestBOM(t *testing.T) {
	_, hs := newServer(t, Options{})
	body := mustJSON(small(t))
	for _, tc := range []struct {
		name, body string
	}{{"plain", body}, {"bom", "\uFEFF" + body}} {
		status, got := post(t, hs, "/v1/advantages", tc.body)
		if status != 200 || got["advantages"] == nil {
			t.Errorf("%s: %d %v", tc.name, status, got)
		}
	}
}

func mustJSON(v any) string {
	raw, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(raw)
}

// The replay answers' errors name the answer and the field.
func TestReplayAnswerErrors(t *testing.T) {
	rec := recordBatch(3, 3, 4, 2)
	c := credit.DefaultConfig()
	plan, err := credit.PlanReplay("mrtpo", c, rec.b)
	if err != nil || len(plan.Requests) < 2 {
		t.Fatalf("plan %v %v", plan, err)
	}
	good := answersFor(plan, 3)
	body := func(change func([]topk.Answer)) map[string]any {
		as := make([]topk.Answer, len(good))
		for i, a := range good {
			as[i] = topk.Answer{K: a.K, IDs: append([]int32(nil), a.IDs...), LogProbs: append([]float32(nil), a.LogProbs...)}
		}
		change(as)
		return wireBody(rec, "mrtpo", nil, true, as, false)
	}
	r := len(good) - 1
	cases := []errorCase{
		{"short ids", body(func(a []topk.Answer) { a[r].IDs = a[r].IDs[3:] }), 400, "replay.answers[" + itoa(r) + "].ids", "entries for"},
		{"duplicate id", body(func(a []topk.Answer) { a[r].IDs[0], a[r].IDs[1] = 11, 11 }), 400, "replay.answers[" + itoa(r) + "].ids", "twice"},
		{"positive logprob", body(func(a []topk.Answer) { a[r].IDs[0] = 999; a[r].LogProbs[0] = 0.5 }), 400, "replay.answers[" + itoa(r) + "].logprobs", "≤ 0"},
		{"mass over 1", body(func(a []topk.Answer) {
			for e := range a[r].K {
				a[r].IDs[e], a[r].LogProbs[e] = int32(900+e), -0.1
			}
		}), 400, "replay.answers[" + itoa(r) + "].logprobs", "sum to"},
		{"id below -1", body(func(a []topk.Answer) { a[r].IDs[0] = -3 }), 400, "replay.answers[" + itoa(r) + "].ids", "below -1"},
		{"plan digest", set(t, body(func([]topk.Answer) {}), "replay.plan", "00ff"), 400, "replay.plan", "other replay requests"},
		{"k", set(t, body(func([]topk.Answer) {}), "replay.answers.0.k", 0), 400, "replay.answers[0].k", "at least 1"},
		{"k too large", set(t, body(func([]topk.Answer) {}), "replay.answers.0.k", 5000), 413, "replay.answers[0].k", "1024"},
	}
	runErrorCases(t, "/v1/advantages", Options{}, cases)
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

func TestInfluenceErrors(t *testing.T) {
	rec := recordBatch(4, 2, 3, 2)
	b := wireBody(rec, "p2t", nil, false, nil, true)
	n := len(rec.influence[0].Token)
	cases := []errorCase{
		{"token count", set(t, b, "influence.0.token", make([]float64, n+1)), 400, "influence[0].token", "values for the response's"},
		{"step order", set(t, b, "influence.0.steps", []any{map[string]any{"start": 1, "end": 0, "logit": 0}}), 400, "influence[0].steps[0]", "in order"},
		{"step fields", set(t, b, "influence.0.steps", []any{map[string]any{"start": 0}}), 400, "influence[0].steps[0]", "needs start, end and logit"},
		{"step without logit", set(t, b, "influence.0.steps", []any{map[string]any{"start": 0, "end": 1}}), 400, "influence[0].steps[0]", "needs start, end and logit"},
		{"step start outside", set(t, b, "influence.0.steps", []any{map[string]any{"start": -1, "end": 1, "logit": 0}}), 400, "influence[0].steps[0].start", "outside"},
		{"count", set(t, b, "influence", []any{}), 400, "influence", "0 influences for 6 responses"},
	}
	runErrorCases(t, "/v1/advantages", Options{}, cases)
}

func TestVerifyErrors(t *testing.T) {
	rec := map[string]any{"prompt": "Write.", "instruction_id_list": []string{"punctuation:no_comma"}, "kwargs": []any{map[string]any{}}}
	item := map[string]any{"record": rec, "responses": []string{"a"}}
	cases := []errorCase{
		{"no format", map[string]any{"items": []any{item}}, 400, "format", "required"},
		{"unknown format", map[string]any{"format": "squad", "items": []any{item}}, 400, "format", "bfcl, gsm8k, ifeval, task"},
		{"sql without a folder", map[string]any{"format": "sql", "items": []any{item}}, 400, "format", "unknown format"},
		{"no items", map[string]any{"format": "ifeval", "items": []any{}}, 400, "items", "at least one"},
		{"bad record", map[string]any{"format": "ifeval", "items": []any{map[string]any{"record": map[string]any{"prompt": "x"}, "responses": []string{"a"}}}}, 400, "items[0].record", "instruction_id_list"},
		{"no record", map[string]any{"format": "ifeval", "items": []any{map[string]any{"responses": []string{"a"}}}}, 400, "items[0].record", "required"},
		{"task with records", map[string]any{"format": "ifeval", "task": "ifeval", "items": []any{item}}, 400, "task", "format \"task\" only"},
		{"task format without task", map[string]any{"format": "task", "items": []any{map[string]any{"prompt_id": "train-1"}}}, 400, "task", "required"},
		{"unknown task", map[string]any{"format": "task", "task": "nope", "items": []any{map[string]any{"prompt_id": "train-1"}}}, 400, "task", "unknown task"},
		{"bad difficulty", map[string]any{"format": "task", "task": "arith", "difficulty": "max_ops=99", "items": []any{map[string]any{"prompt_id": "arith-train-1"}}}, 400, "difficulty", "max_ops"},
		{"unknown prompt id", map[string]any{"format": "task", "task": "arith", "items": []any{map[string]any{"prompt_id": "arith-train-x"}}}, 400, "items[0].prompt_id", "not <"},
		{"prompt of another task", map[string]any{"format": "task", "task": "arith", "items": []any{map[string]any{"prompt_id": "slots-train-1"}}}, 400, "items[0].prompt_id", "has no prompt"},
		{"unknown reward", map[string]any{"format": "ifeval", "rewards": []string{"words"}, "items": []any{item}}, 400, "rewards[0]", "unknown reward"},
		{"reward twice", map[string]any{"format": "ifeval", "rewards": []string{"punctuation:no_comma", "punctuation:no_comma"}, "items": []any{item}}, 400, "rewards[1]", "twice"},
		{"responses not strings", map[string]any{"format": "ifeval", "items": []any{map[string]any{"record": rec, "responses": []int{1}}}}, 400, "items[0].responses[0]", "want a string"},
		{"unknown item field", map[string]any{"format": "ifeval", "items": []any{map[string]any{"record": rec, "answers": []int{1}}}}, 400, "items[0].answers", "unknown field"},
	}
	runErrorCases(t, "/v1/verify", Options{}, cases)
	runErrorCases(t, "/v1/prompts", Options{}, []errorCase{
		{"no task", map[string]any{"count": 2}, 400, "task", "required"},
		{"no count", map[string]any{"task": "slots"}, 400, "count", "required"},
		{"count too large", map[string]any{"task": "slots", "count": 10001}, 400, "count", "outside"},
		{"split", map[string]any{"task": "slots", "count": 1, "split": "dev"}, 400, "split", "train"},
	})
}

func TestReplayPlanErrors(t *testing.T) {
	b := small(t)
	runErrorCases(t, "/v1/replay-plan", Options{}, []errorCase{
		{"a method without replay", b, 400, "method", "does not replay"},
		{"no prompt", set(t, set(t, b, "method", "mrtpo"), "responses.2.prompt", nil), 400, "responses[2].prompt", "required by mrtpo"},
		{"with answers", set(t, set(t, b, "method", "mrtpo"), "replay", map[string]any{"answers": []any{}}), 400, "replay", "leave replay out"},
	})
}

// blockingPRM holds p2t requests until released, whatever their
// context says (or panics).
type blockingPRM struct {
	started, release chan struct{}
	panics           bool
}

func (p blockingPRM) Influence(ctx context.Context, reqs []credit.InfluenceRequest, _ credit.NullEmbedding) ([]credit.Influence, error) {
	if p.panics {
		panic("the PRM broke")
	}
	p.started <- struct{}{}
	<-p.release
	<-ctx.Done() // its deadline has passed by now, but its timer may not have run yet
	return nil, ctx.Err()
}

// The server's own limits and failures: auth, routes, body size, busy,
// deadline, a panic; and /healthz, /metrics after them.
func TestServerErrors(t *testing.T) {
	p2t := mustJSON(set(t, small(t), "method", "p2t"))
	prm := blockingPRM{started: make(chan struct{}, 4), release: make(chan struct{})}
	s, hs := newServer(t, Options{APIKey: "k3y", MaxBody: 4096, Deadline: 300 * time.Millisecond, Concurrency: 1, PRM: prm})
	do := func(method, path, key, body string) (int, map[string]any, http.Header) {
		status, raw, h := call(t, hs, method, path, key, []byte(body))
		var out map[string]any
		json.Unmarshal(raw, &out)
		return status, out, h
	}
	kind := func(out map[string]any) string {
		e, _ := out["error"].(map[string]any)
		k, _ := e["kind"].(string)
		return k
	}
	if code, out, _ := do("GET", "/healthz", "", ""); code != 200 || out["status"] != "ok" {
		t.Errorf("healthz without a key: %d %v", code, out)
	}
	if code, out, h := do("GET", "/v1/methods", "", ""); code != 401 || kind(out) != kindAuth || h.Get("WWW-Authenticate") == "" {
		t.Errorf("no key: %d %v", code, out)
	}
	if code, out, _ := do("GET", "/v1/methods", "wrong", ""); code != 401 || kind(out) != kindAuth {
		t.Errorf("wrong key: %d %v", code, out)
	}
	if code, out, _ := do("GET", "/v2/methods", "k3y", ""); code != 404 || kind(out) != kindNotFound {
		t.Errorf("unknown path: %d %v", code, out)
	}
	if code, out, h := do("GET", "/v1/verify", "k3y", ""); code != 405 || kind(out) != kindMethod || h.Get("Allow") != "POST" {
		t.Errorf("GET verify: %d %v %v", code, out, h)
	}
	if code, out, _ := do("POST", "/v1/verify", "k3y", `{"format": "`+strings.Repeat("x", 5000)+`"}`); code != 413 || kind(out) != kindTooLarge {
		t.Errorf("large body: %d %v", code, out)
	}
	// One request holds the only slot: the next waits past its deadline (503);
	// the first runs past the deadline itself (504).
	var wg sync.WaitGroup
	var firstCode int
	var firstOut map[string]any
	wg.Go(func() { firstCode, firstOut, _ = do("POST", "/v1/advantages", "k3y", p2t) })
	<-prm.started
	if code, out, _ := do("POST", "/v1/advantages", "k3y", p2t); code != 503 || kind(out) != kindBusy {
		t.Errorf("second request while the slot is held: %d %v", code, out)
	}
	close(prm.release) // the first, now past its deadline
	wg.Wait()
	if firstCode != 504 || kind(firstOut) != kindDeadline {
		t.Errorf("request past its deadline: %d %v", firstCode, firstOut)
	}
	s.o.PRM = blockingPRM{panics: true}
	if code, out, _ := do("POST", "/v1/advantages", "k3y", p2t); code != 500 || kind(out) != kindInternal {
		t.Errorf("a panic: %d %v", code, out)
	}
	if code, _, _ := do("POST", "/v1/advantages", "k3y", mustJSON(small(t))); code != 200 {
		t.Errorf("after the panic: %d", code)
	}
	_, raw, _ := call(t, hs, "GET", "/metrics", "k3y", nil)
	for _, want := range []string{`credo_requests_total{endpoint="/v1/advantages",code="504"} 1`, `credo_requests_total{endpoint="other",code="404"} 1`,
		`credo_errors_total{kind="busy"} 1`, `credo_errors_total{kind="internal"} 1`, `credo_errors_total{kind="unauthorized"} 2`,
		`credo_request_duration_seconds_bucket{endpoint="/v1/advantages",le="+Inf"} 4`, "credo_in_flight_requests 1"} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("metrics lack %q:\n%s", want, raw)
		}
	}
}

// Inputs built to cost more than their size: an object of 50,000 keys, and
// many spans over many tokens.
func TestCostlyInputs(t *testing.T) {
	var keys strings.Builder
	keys.WriteString(strings.TrimSuffix(mustJSON(small(t)), "}") + `, "config": {`)
	for i := range 50_000 {
		if i > 0 {
			keys.WriteByte(',')
		}
		keys.WriteString(`"k` + itoa(i) + `": 0`)
	}
	keys.WriteString(`}}`)
	T := 1 << 16
	offsets := make([][2]int, T)
	spans := make([]map[string]any, 4097)
	for i := range spans {
		spans[i] = map[string]any{"start": i, "end": i + 1}
	}
	b := small(t)
	b = set(t, b, "responses.0.response", strings.Repeat("x", T))
	b = set(t, b, "responses.0.tokens", make([]int, T))
	b = set(t, b, "responses.0.offsets", offsets)
	b = set(t, b, "responses.0.verdicts.0.spans", spans)
	runErrorCases(t, "/v1/advantages", Options{}, []errorCase{
		{"50,000 keys", keys.String(), 400, "config", "unknown field"},
		{"spans × tokens", b, 413, "responses[0].verdicts", "spans × tokens"},
	})
}
