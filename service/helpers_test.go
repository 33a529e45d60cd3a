package service

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/credit/topk"
	"github.com/credo-rl/credo/reward"
	_ "github.com/credo-rl/credo/task/arith"
	_ "github.com/credo-rl/credo/task/ifeval"
	_ "github.com/credo-rl/credo/task/slots"
	_ "github.com/credo-rl/credo/task/sql"
	_ "github.com/credo-rl/credo/task/toolcall"
)

// newServer starts a server on 127.0.0.1 for one test.
func newServer(t testing.TB, o Options) (*Server, *httptest.Server) {
	t.Helper()
	s, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(s.Handler())
	t.Cleanup(func() {
		hs.Close()
		s.Close()
	})
	return s, hs
}

// call sends one request (with a bearer key unless key is empty) and
// returns the status, the raw answer and its headers.
func call(t testing.TB, hs *httptest.Server, method, path, key string, body []byte) (int, []byte, http.Header) {
	t.Helper()
	header := http.Header{}
	if key != "" {
		header.Set("Authorization", "Bearer "+key)
	}
	u, err := url.Parse(hs.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := hs.Client().Do(&http.Request{Method: method, URL: u, Header: header,
		Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body))})
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, raw, resp.Header
}

// decoded is an answer decoded with its numbers exact (json.Number).
func decoded(t testing.TB, raw []byte) map[string]any {
	t.Helper()
	var out map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		t.Fatalf("the answer is not JSON (%v): %.300s", err, raw)
	}
	return out
}

// post sends body (a []byte, string or anything encoding/json writes) and
// returns the status and the decoded answer.
func post(t testing.TB, hs *httptest.Server, path string, body any) (int, map[string]any) {
	t.Helper()
	var data []byte
	switch b := body.(type) {
	case []byte:
		data = b
	case string:
		data = []byte(b)
	default:
		var err error
		if data, err = json.Marshal(body); err != nil {
			t.Fatal(err)
		}
	}
	status, raw, _ := call(t, hs, http.MethodPost, path, "", data)
	return status, decoded(t, raw)
}

// num reads a json.Number (or nil, NaN) as float64 exactly.
func num(t testing.TB, v any) float64 {
	t.Helper()
	n, ok := v.(json.Number)
	if !ok {
		t.Fatalf("%v (%T) is not a number", v, v)
	}
	x, err := n.Float64()
	if err != nil {
		t.Fatal(err)
	}
	return x
}

// floatsOf reads a JSON array of numbers or a base64 float64 string.
func floatsOf(t testing.TB, v any) []float64 {
	t.Helper()
	if s, ok := v.(string); ok {
		raw, err := base64.StdEncoding.DecodeString(s)
		if err != nil || len(raw)%8 != 0 {
			t.Fatalf("packed float64s %q: %v", s, err)
		}
		out := make([]float64, len(raw)/8)
		for i := range out {
			out[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
		}
		return out
	}
	arr, ok := v.([]any)
	if !ok {
		t.Fatalf("%v (%T) is not an array", v, v)
	}
	out := make([]float64, len(arr))
	for i, x := range arr {
		out[i] = num(t, x)
	}
	return out
}

func packInt32(xs []int32) string {
	b := make([]byte, 4*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint32(b[4*i:], uint32(x))
	}
	return base64.StdEncoding.EncodeToString(b)
}

func packFloat32(xs []float32) string {
	b := make([]byte, 4*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return base64.StdEncoding.EncodeToString(b)
}

// pieces are token texts, with multi-byte characters and an empty token.
var pieces = []string{"the", " cat", ",", " é", "数", "🙂", " 42", "\n", "", "\"q\"", " sat"}

// recorded is a batch built for the tests, in credo's form and the wire's.
type recorded struct {
	b         *credit.Batch
	influence []credit.Influence
}

// recordBatch builds a batch of groups × size responses with k rewards:
// tokens over pieces (byte offsets, some inside a character), scores with
// variance in most groups, verdicts with blocks, spans (some with a
// judge's effect), a skip here and there, and P2T influence with steps.
func recordBatch(seed uint64, groups, size, k int) recorded {
	r := rand.New(rand.NewPCG(seed, 77))
	n := groups * size
	b := &credit.Batch{Groups: make([]int, n), Scores: make([][]float64, k), Verdicts: make([][]reward.Verdict, k),
		Rewards: make([]string, k), Weights: make([]float64, k), Prompts: make([]string, n), Responses: make([]string, n),
		Tokens: make([][]int32, n), Offsets: make([][][2]int, n), Step: 12, Seed: seed}
	var rec recorded
	for i := range n {
		b.Groups[i] = 10 * (i / size)
		b.Prompts[i] = fmt.Sprintf("Question %d: what is %d + %d?", i/size, i/size, 7)
		var text strings.Builder
		T := r.IntN(9)
		if i%size == 1 && i > 0 {
			T = 0 // an empty response in some groups
		}
		for range T {
			p := pieces[r.IntN(len(pieces))]
			start := text.Len()
			text.WriteString(p)
			o := [2]int{start, text.Len()}
			if len(p) > 1 && p[len(p)-1] >= 0x80 && r.IntN(2) == 0 { // a byte-level token ending inside a character
				o[1]--
			}
			b.Tokens[i] = append(b.Tokens[i], int32(r.IntN(500)))
			b.Offsets[i] = append(b.Offsets[i], o)
		}
		b.Responses[i] = text.String()
		rec.influence = append(rec.influence, influenceFor(r, T))
	}
	for kk := range k {
		b.Rewards[kk] = fmt.Sprintf("r%d", kk)
		b.Weights[kk] = 0.5 + float64(kk)
		b.Scores[kk] = make([]float64, n)
		b.Verdicts[kk] = make([]reward.Verdict, n)
		for i := range n {
			v := reward.Verdict{Score: float64(r.IntN(3)) / 2, Info: fmt.Sprintf("Block %d of %d", kk, r.IntN(2))}
			if i/size == 1 {
				v.Score = 1 // a group without variance
			}
			if r.IntN(6) == 0 {
				v.Info = ""
			}
			if r.IntN(9) == 0 {
				v.Skip, v.Score = true, 0
			}
			L := len(b.Responses[i])
			for range r.IntN(3) {
				s := r.IntN(L + 1)
				v.Spans = append(v.Spans, reward.Span{Start: s, End: s + r.IntN(L-s+1), Strength: float64(r.IntN(3)) / 2, Effect: reward.Effect(r.IntN(3) - 1)})
			}
			b.Scores[kk][i], b.Verdicts[kk][i] = v.Score, v
		}
	}
	rec.b = b
	return rec
}

func influenceFor(r *rand.Rand, T int) credit.Influence {
	in := credit.Influence{Token: make([]float64, T)}
	for t := range in.Token {
		in.Token[t] = r.NormFloat64()
	}
	for start := 0; start < T; {
		end := start + 1 + r.IntN(3)
		in.Steps = append(in.Steps, credit.StepScore{Start: start, End: min(end, T), Logit: r.NormFloat64()})
		start = end
	}
	return in
}

// answersFor writes every planned request's top-k (with unused entries
// at the end of some positions): what a trainer's engine would send.
func answersFor(plan credit.ReplayPlan, k int) []topk.Answer {
	out := make([]topk.Answer, len(plan.Requests))
	for r, q := range plan.Requests {
		h := uint64(14695981039346656037)
		for _, c := range []byte(q.Prompt) {
			h = (h ^ uint64(c)) * 1099511628211
		}
		rng := rand.New(rand.NewPCG(h, 3))
		a := topk.Answer{K: k}
		for t := range q.Response {
			used := k - rng.IntN(2)
			mass := 0.95 * rng.Float64()
			for e := range k {
				if e >= used {
					a.IDs, a.LogProbs = append(a.IDs, -1), append(a.LogProbs, 0)
					continue
				}
				a.IDs = append(a.IDs, int32((int(q.Response[t])+e*7+rng.IntN(3)*101)%1000))
				p := mass / float64(used)
				a.LogProbs = append(a.LogProbs, float32(math.Log(p)))
			}
		}
		out[r] = dedupIDs(a)
	}
	return out
}

// dedupIDs marks an id repeated within a position unused.
func dedupIDs(a topk.Answer) topk.Answer {
	for t := 0; t < len(a.IDs); t += a.K {
		seen := map[int32]bool{}
		for e := t; e < t+a.K; e++ {
			if a.IDs[e] >= 0 && seen[a.IDs[e]] {
				a.IDs[e] = -1
			}
			seen[a.IDs[e]] = true
		}
	}
	return a
}

// fixedInfluence answers with recorded influence.
type fixedInfluence []credit.Influence

func (f fixedInfluence) Influence(context.Context, []credit.InfluenceRequest, credit.NullEmbedding) ([]credit.Influence, error) {
	return f, nil
}

// wireBody renders a recorded batch as an advantages request body; packed
// sends tokens, offsets and replay answers as base64.
func wireBody(rec recorded, method string, config map[string]any, packed bool, answers []topk.Answer, influence bool) map[string]any {
	b := rec.b
	resps := make([]map[string]any, len(b.Groups))
	for i := range resps {
		vs := make([]map[string]any, len(b.Rewards))
		for k := range vs {
			v := b.Verdicts[k][i]
			spans := []map[string]any{}
			for _, s := range v.Spans {
				sp := map[string]any{"start": s.Start, "end": s.End, "strength": s.Strength}
				switch s.Effect {
				case reward.Raised:
					sp["effect"] = "+"
				case reward.Lowered:
					sp["effect"] = "-"
				}
				spans = append(spans, sp)
			}
			vs[k] = map[string]any{"score": v.Score, "info": v.Info, "spans": spans, "skip": v.Skip, "reason": "logged only"}
		}
		var tokens, offsets any = b.Tokens[i], b.Offsets[i]
		if b.Tokens[i] == nil {
			tokens, offsets = []int32{}, [][2]int{}
		}
		if packed {
			flat := make([]int32, 0, 2*len(b.Offsets[i]))
			for _, o := range b.Offsets[i] {
				flat = append(flat, int32(o[0]), int32(o[1]))
			}
			tokens, offsets = packInt32(b.Tokens[i]), packInt32(flat)
		}
		resps[i] = map[string]any{"group": b.Groups[i], "prompt": b.Prompts[i], "response": b.Responses[i],
			"tokens": tokens, "offsets": offsets, "verdicts": vs}
	}
	body := map[string]any{"method": method, "rewards": b.Rewards, "weights": b.Weights, "step": b.Step,
		"seed": b.Seed, "responses": resps, "return_relevance": true}
	if config != nil {
		body["config"] = config
	}
	if packed {
		body["encoding"] = "base64"
	}
	if answers != nil {
		as := make([]map[string]any, len(answers))
		for r, a := range answers {
			if packed {
				as[r] = map[string]any{"k": a.K, "ids": packInt32(a.IDs), "logprobs": packFloat32(a.LogProbs)}
				continue
			}
			ids, lps := [][]int32{}, [][]float32{}
			for t := 0; t < len(a.IDs); t += a.K {
				e := t + a.K
				for e > t && a.IDs[e-1] == -1 { // the JSON form may leave unused entries out
					e--
				}
				ids, lps = append(ids, a.IDs[t:e]), append(lps, a.LogProbs[t:e])
			}
			as[r] = map[string]any{"k": a.K, "ids": ids, "logprobs": lps}
		}
		body["replay"] = map[string]any{"answers": as}
	}
	if influence {
		in := make([]map[string]any, len(rec.influence))
		for i, x := range rec.influence {
			steps := []map[string]any{}
			for _, s := range x.Steps {
				steps = append(steps, map[string]any{"start": s.Start, "end": s.End, "logit": s.Logit})
			}
			in[i] = map[string]any{"token": x.Token, "steps": steps}
		}
		body["influence"] = in
	}
	return body
}
