package prm

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/arith"
)

var allNulls = []credit.NullEmbedding{credit.NullPad, credit.NullMean, credit.NullZero, credit.NullEOS}

// arithExamples are n labelled arith solutions (clean and corrupted).
func arithExamples(t testing.TB, n int, seed uint64) []Labeled {
	t.Helper()
	tk, err := task.New("arith", task.Config{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	exs, err := Synthetic(tk, task.Train, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	return exs
}

// TestLinearModelExact: for a model linear in its embeddings, the one-pass
// gradient influence equals the exact re-scoring attribution, for every
// null, on the PRM's tokens and after carrying to policy tokens.
func TestLinearModelExact(t *testing.T) {
	ctx := context.Background()
	exs := arithExamples(t, 6, 1)
	reqs := Requests(exs)
	for i := range reqs {
		if i%2 == 1 {
			reqs[i].Offsets = chunkOffsets(len(reqs[i].Response), 3, 1, 2)
		}
	}
	for _, tc := range []struct {
		name string
		p    *PRM
	}{
		{"bytes", must1(linearPRM(mustBytes(), 5))},
		{"pairs", must1(linearPRM(pairTokenizer{mustBytes()}, 6))},
	} {
		for _, null := range allNulls {
			grad, err := tc.p.Attribute(ctx, reqs, null)
			if err != nil {
				t.Fatal(err)
			}
			exact, err := tc.p.ExactAttribute(ctx, reqs, null)
			if err != nil {
				t.Fatal(err)
			}
			big := 0
			for i := range grad {
				if len(grad[i].Token) == 0 || len(grad[i].Token) != len(exact[i].Token) {
					t.Fatalf("%s/%s response %d: %d and %d tokens", tc.name, null, i, len(grad[i].Token), len(exact[i].Token))
				}
				for k := range grad[i].Token {
					g, x := grad[i].Token[k], exact[i].Token[k]
					if math.Abs(g-x) > 1e-4*(1+math.Abs(x)) {
						t.Errorf("%s/%s response %d token %d: gradient %.7g, exact %.7g", tc.name, null, i, k, g, x)
					}
					if math.Abs(x) > 0.1 {
						big++
					}
				}
				for s := range grad[i].Logits {
					if math.Abs(grad[i].Logits[s]-exact[i].Logits[s]) > 1e-4 {
						t.Errorf("%s/%s response %d step %d: logits %g and %g", tc.name, null, i, s, grad[i].Logits[s], exact[i].Logits[s])
					}
				}
			}
			if big < 20 {
				t.Errorf("%s/%s: only %d tokens have a sizeable influence: the comparison says little", tc.name, null, big)
			}
			gi, err := tc.p.Influence(ctx, reqs, null)
			if err != nil {
				t.Fatal(err)
			}
			xi, err := tc.p.ExactInfluence(ctx, reqs, null)
			if err != nil {
				t.Fatal(err)
			}
			for i := range gi {
				for k := range gi[i].Token {
					if math.Abs(gi[i].Token[k]-xi[i].Token[k]) > 1e-4*(1+math.Abs(xi[i].Token[k])) {
						t.Errorf("%s/%s response %d policy token %d: gradient %g, exact %g", tc.name, null, i, k, gi[i].Token[k], xi[i].Token[k])
					}
				}
			}
		}
	}
}

func must1[T any](v T, _ any) T { return v }

// TestCarryToPolicyTokens: influence computed on PRM tokens lands on the
// policy's tokens by bytes, whichever tokenizer is coarser, and its sum is
// kept.
func TestCarryToPolicyTokens(t *testing.T) {
	ctx := context.Background()
	ex := arithExamples(t, 1, 2)[0]
	n := len(ex.Response)
	for _, tc := range []struct {
		name   string
		p      *PRM
		policy [][2]int
		// check relates policy value k to the PRM values (by PRM token).
		check func(prm []float64, pol []float64, k int) float64
	}{
		{"same bytes", must1(linearPRM(mustBytes(), 1)), byteOffsets(n),
			func(prm, _ []float64, k int) float64 {
				if k == n {
					return 0 // EOS: no bytes
				}
				return prm[k]
			}},
		{"policy merges 3 bytes", must1(linearPRM(mustBytes(), 1)), chunkOffsets(n, 3),
			func(prm, _ []float64, k int) float64 {
				var s float64
				for b := 3 * k; b < min(3*k+3, n); b++ {
					s += prm[b]
				}
				return s
			}},
		{"PRM reads byte pairs", must1(linearPRM(pairTokenizer{mustBytes()}, 1)), byteOffsets(n),
			func(prm, _ []float64, k int) float64 {
				if k == n {
					return 0
				}
				if n%2 == 1 && k == n-1 {
					return prm[k/2] // the last pair is a single byte
				}
				return prm[k/2] / 2 // a pair splits evenly over its two bytes
			}},
	} {
		req := []credit.InfluenceRequest{{Prompt: ex.Prompt, Response: ex.Response, Offsets: tc.policy}}
		att, err := tc.p.Attribute(ctx, req, credit.NullPad)
		if err != nil {
			t.Fatal(err)
		}
		in, err := tc.p.Influence(ctx, req, credit.NullPad)
		if err != nil {
			t.Fatal(err)
		}
		pol := in[0].Token
		if len(pol) != len(tc.policy) {
			t.Fatalf("%s: %d values for %d policy tokens", tc.name, len(pol), len(tc.policy))
		}
		var sp, sq float64
		for k := range pol {
			want := tc.check(att[0].Token, pol, k)
			if math.Abs(pol[k]-want) > 1e-9*(1+math.Abs(want)) {
				t.Errorf("%s: policy token %d has %g, want %g", tc.name, k, pol[k], want)
			}
			sp += pol[k]
		}
		for _, v := range att[0].Token {
			sq += v
		}
		if math.Abs(sp-sq) > 1e-9*(1+math.Abs(sq)) {
			t.Errorf("%s: policy influence sums to %g, PRM influence to %g", tc.name, sp, sq)
		}
		// Each step's policy range holds exactly the tokens its bytes touch.
		for s, st := range in[0].Steps {
			b := att[0].Steps[s]
			for k, o := range tc.policy {
				inside := k >= st.Start && k < st.End
				if touch := overlaps(o, b[0], b[1]); touch != inside {
					t.Errorf("%s: step %d [%d,%d) bytes %v: policy token %d %v touches=%v inside=%v", tc.name, s, st.Start, st.End, b, k, o, touch, inside)
				}
			}
		}
	}
}

// TestNullChoices: a response token that is the null token itself has
// zero influence under that null and only under it, and the four nulls
// give four different attributions.
func TestNullChoices(t *testing.T) {
	ctx := context.Background()
	tok := mustBytes()
	p, _ := linearPRM(tok, 9)
	resp := "3 + 4 = 7<|pad|>\n7 * 2 = 14<|eos|>\nanswer: 14"
	ids, offs := tok.Encode(resp)
	padAt, eosAt := -1, -1
	for k, id := range ids {
		switch id {
		case tok.PAD():
			padAt = k
		case tok.EOS():
			eosAt = k
		}
	}
	if padAt < 0 || eosAt < 0 {
		t.Fatal("the response does not hold the PAD and EOS tokens")
	}
	req := []credit.InfluenceRequest{{Prompt: "Compute (3 + 4) * 2.", Response: resp, Offsets: offs}}
	got := map[credit.NullEmbedding][]float64{}
	for _, null := range allNulls {
		a, err := p.Attribute(ctx, req, null)
		if err != nil {
			t.Fatal(err)
		}
		got[null] = a[0].Token
	}
	for _, tc := range []struct {
		null credit.NullEmbedding
		at   int
	}{{credit.NullPad, padAt}, {credit.NullEOS, eosAt}} {
		for _, null := range allNulls {
			v := got[null][tc.at]
			if zero := math.Abs(v) < 1e-12; zero != (null == tc.null) {
				t.Errorf("null %s: influence of the %s token is %g", null, tc.null, v)
			}
		}
	}
	for i, a := range allNulls {
		for _, b := range allNulls[i+1:] {
			same := true
			for k := range got[a] {
				same = same && math.Abs(got[a][k]-got[b][k]) < 1e-9
			}
			if same {
				t.Errorf("nulls %s and %s give the same influence", a, b)
			}
		}
	}
	if _, err := p.Attribute(ctx, req, "median"); err == nil || !strings.Contains(err.Error(), "median") {
		t.Errorf("unknown null: error %v", err)
	}
}

// TestInfluenceBadInput: malformed requests are clear errors; responses
// without steps get zero influence and no steps, without a model call.
func TestInfluenceBadInput(t *testing.T) {
	ctx := context.Background()
	p, s := linearPRM(mustBytes(), 1)
	good := "1 + 2 = 3\nanswer: 3"
	for _, tc := range []struct {
		name string
		req  credit.InfluenceRequest
		want string
	}{
		{"offsets out of order", credit.InfluenceRequest{Prompt: "x", Response: good, Offsets: [][2]int{{2, 3}, {0, 1}}}, "in order"},
		{"offsets past the end", credit.InfluenceRequest{Prompt: "x", Response: good, Offsets: [][2]int{{0, 100}}}, "within the response"},
		{"inverted range", credit.InfluenceRequest{Prompt: "x", Response: good, Offsets: [][2]int{{3, 1}}}, "policy token 0"},
		{"negative start", credit.InfluenceRequest{Prompt: "x", Response: good, Offsets: [][2]int{{-1, 1}}}, "policy token 0"},
	} {
		_, err := p.Influence(ctx, []credit.InfluenceRequest{tc.req}, credit.NullPad)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one mentioning %q", tc.name, err, tc.want)
		}
	}

	long := strings.Repeat("1 + 1 = 2\n", 80)
	q := *p
	q.Context = 256
	if _, err := q.Influence(ctx, []credit.InfluenceRequest{{Prompt: "x", Response: long, Offsets: byteOffsets(len(long))}}, credit.NullPad); err == nil ||
		!strings.Contains(err.Error(), "context of 256") || !strings.Contains(err.Error(), "response 0") {
		t.Errorf("too long: error %v", err)
	}
	bad := q
	bad.Split = func(_, _ string) [][2]int { return [][2]int{{4, 9}, {0, 3}} }
	if _, err := bad.Influence(ctx, []credit.InfluenceRequest{{Prompt: "x", Response: good, Offsets: byteOffsets(len(good))}}, credit.NullPad); err == nil || !strings.Contains(err.Error(), "step 1") {
		t.Errorf("steps out of order: error %v", err)
	}

	calls := s.calls
	for _, resp := range []string{"", "answer: 3", "   \n\n"} {
		out, err := p.Influence(ctx, []credit.InfluenceRequest{{Prompt: "x", Response: resp, Offsets: byteOffsets(len(resp))}}, credit.NullPad)
		if err != nil {
			t.Fatalf("%q: %v", resp, err)
		}
		if len(out) != 1 || len(out[0].Token) != len(resp)+1 || len(out[0].Steps) != 0 {
			t.Fatalf("%q: %+v", resp, out)
		}
		for _, v := range out[0].Token {
			if v != 0 {
				t.Errorf("%q: influence %v without a step", resp, out[0].Token)
			}
		}
	}
	if s.calls != calls {
		t.Errorf("stepless responses made %d model calls", s.calls-calls)
	}
	if out, err := p.Influence(ctx, nil, credit.NullPad); err != nil || len(out) != 0 {
		t.Errorf("empty batch: %v, %v", out, err)
	}
}

// TestInfluencerContract: a real (tiny, untrained) scoring model's
// influence is finite, its steps are in order, disjoint and within the
// policy tokens, and credit's p2t method accepts it.
func TestInfluencerContract(t *testing.T) {
	ctx := context.Background()
	p := tinyPRM(t, 3)
	exs := arithExamples(t, 8, 4)
	exs = append(exs, Labeled{Prompt: "Compute 2 + 2.", Response: ""}, Labeled{Prompt: "Compute 2 + 2.", Response: "answer: 4"})
	reqs := Requests(exs)
	for i := range reqs {
		if i%3 == 0 {
			reqs[i].Offsets = append(chunkOffsets(len(reqs[i].Response), 2, 5, 1), [2]int{len(reqs[i].Response), len(reqs[i].Response)})
		}
	}
	out, err := p.Influence(ctx, reqs, credit.NullPad)
	if err != nil {
		t.Fatal(err)
	}
	for i, in := range out {
		if len(in.Token) != len(reqs[i].Offsets) {
			t.Fatalf("response %d: %d influences for %d tokens", i, len(in.Token), len(reqs[i].Offsets))
		}
		for k, v := range in.Token {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("response %d token %d: influence %v", i, k, v)
			}
		}
		want := arith.Steps(task.Prompt{Text: exs[i].Prompt}, exs[i].Response)
		if len(in.Steps) != len(want) {
			t.Errorf("response %d: %d steps, the task has %d", i, len(in.Steps), len(want))
		}
		prev := 0
		for s, st := range in.Steps {
			if st.Start < prev || st.End <= st.Start || st.End > len(in.Token) {
				t.Errorf("response %d step %d: range [%d, %d) after %d of %d tokens", i, s, st.Start, st.End, prev, len(in.Token))
			}
			prev = st.End
		}
	}
	b := &credit.Batch{
		Groups: make([]int, len(exs)), Scores: [][]float64{make([]float64, len(exs))},
		Prompts: make([]string, len(exs)), Responses: make([]string, len(exs)),
		Tokens: make([][]int32, len(exs)), Offsets: make([][][2]int, len(exs)), PRM: p,
	}
	for i, r := range reqs {
		b.Scores[0][i] = float64(i % 2)
		b.Prompts[i], b.Responses[i], b.Offsets[i] = r.Prompt, r.Response, r.Offsets
		b.Tokens[i] = make([]int32, len(r.Offsets))
	}
	m, err := credit.New("p2t", credit.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	adv, _, err := m.Advantages(ctx, b)
	if err != nil {
		t.Fatalf("p2t rejected the PRM's influence: %v", err)
	}
	if len(adv.Tokens) != len(exs) {
		t.Fatalf("p2t returned %d rows", len(adv.Tokens))
	}
}
