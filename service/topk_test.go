package service

import (
	"context"
	"flag"
	"math"
	"sort"
	"testing"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/credit/topk"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/prm"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/task"
)

var (
	topkPolicy = flag.String("topk.policy", "", "TestTopKApproximation: a policy folder (credo sft) to replay")
	topkTask   = flag.String("topk.task", "slots", "TestTopKApproximation: the task whose prompts it answers")
)

// fullReplayer is the policy's own replay, on full distributions: the
// prompt rendered by its chat template, then the response tokens (what
// credo's trainer does, without its prefix sharing). It keeps every answer
// for the top-k truncations.
type fullReplayer struct {
	p    *policy.Policy
	reqs []credit.ReplayRequest
	out  [][][]float32
}

func (f *fullReplayer) Replay(ctx context.Context, reqs []credit.ReplayRequest) ([][][]float32, error) {
	var out [][][]float32
	for start := 0; start < len(reqs); start += 16 {
		end := min(start+16, len(reqs))
		seqs, from := make([][]int32, end-start), make([]int, end-start)
		for i, r := range reqs[start:end] {
			prompt := f.p.Tok.EncodePrompt(r.Prompt)
			seqs[i], from[i] = append(append([]int32(nil), prompt...), r.Response...), len(prompt)
		}
		d, err := f.p.Model.Distributions(ctx, seqs, from)
		if err != nil {
			return nil, err
		}
		out = append(out, d...)
	}
	f.reqs, f.out = reqs, out
	return out, nil
}

// topKOf keeps each distribution's k most likely tokens, as an engine
// returns them.
func topKOf(dists [][]float32, k int) topk.Answer {
	a := topk.Answer{K: k}
	ids := make([]int32, 0)
	for _, p := range dists {
		ids = ids[:0]
		for v := range p {
			ids = append(ids, int32(v))
		}
		sort.Slice(ids, func(x, y int) bool { return p[ids[x]] > p[ids[y]] || (p[ids[x]] == p[ids[y]] && ids[x] < ids[y]) })
		for e := range k {
			if e < len(ids) && p[ids[e]] > 0 {
				a.IDs, a.LogProbs = append(a.IDs, ids[e]), append(a.LogProbs, float32(math.Log(float64(p[ids[e]]))))
			} else {
				a.IDs, a.LogProbs = append(a.IDs, -1), append(a.LogProbs, 0)
			}
		}
	}
	return a
}

// TestTopKApproximation measures how well top-k replay (docs/SERVICE.md
// §9) approximates MRTPO's relevance on full distributions, on a policy
// of credo's own: 32 prompts × 8 sampled responses of -topk.task, replayed
// in full, then from their top 5, 20 and 100. It prints the Spearman rank
// correlation of q over every replayed (response, reward, token), the mean
// within-response Spearman, and the Spearman over pairs of each pair's
// localization (q's share on the verifier's spans over their share of
// tokens). A measurement: run it with
//
//	go test ./service -run TopKApproximation -topk.policy DIR -v
func TestTopKApproximation(t *testing.T) {
	if *topkPolicy == "" {
		t.Skip("a measurement: go test ./service -run TopKApproximation -topk.policy DIR -v")
	}
	ctx := context.Background()
	p, err := policy.Load(*topkPolicy)
	if err != nil {
		t.Fatal(err)
	}
	tk, err := task.New(*topkTask, task.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer closeTask(tk)
	b := sampledBatch(t, ctx, p, tk, 32, 8)
	c := credit.DefaultConfig()
	m, _ := credit.New("mrtpo", c)
	full := &fullReplayer{p: p}
	b.Replay = full
	ref, _, err := m.Advantages(ctx, b)
	if err != nil {
		t.Fatal(err)
	}
	if len(full.reqs) == 0 {
		t.Fatalf("no reward varies in any group of the %d responses: nothing to replay", len(b.Tokens))
	}
	t.Logf("%s: %d responses, %d replay requests, vocabulary %d", *topkTask, len(b.Tokens), len(full.reqs), len(full.out[0][0]))
	for _, k := range []int{5, 20, 100} {
		answers := make([]topk.Answer, len(full.reqs))
		for r := range full.reqs {
			answers[r] = topKOf(full.out[r], k)
		}
		rp, err := topk.NewReplayer(full.reqs, answers)
		if err != nil {
			t.Fatal(err)
		}
		b.Replay = rp
		got, _, err := m.Advantages(ctx, b)
		if err != nil {
			t.Fatal(err)
		}
		all, rows, loc := compareRelevance(b, ref.Relevance, got.Relevance)
		t.Logf("k = %3d: Spearman of q over %d tokens %.4f; mean within-response %.4f; of localization over %d pairs %.4f",
			k, all.n, all.rho, rows, loc.n, loc.rho)
	}
}

type corr struct {
	rho float64
	n   int
}

// compareRelevance is the Spearman correlation of two relevances over
// every token of every pair both have, the mean Spearman within a pair's
// row, and the Spearman over pairs of their localization.
func compareRelevance(b *credit.Batch, ref, got [][][]float64) (all corr, rows float64, loc corr) {
	var x, y, lx, ly []float64
	var sum float64
	nrows := 0
	for k := range ref {
		for i := range ref[k] {
			q, r := ref[k][i], got[k][i]
			if q == nil || r == nil || len(q) < 2 {
				continue
			}
			x, y = append(x, q...), append(y, r...)
			if rho, ok := prm.Spearman(q, r); ok && !math.IsNaN(rho) {
				sum += rho
				nrows++
			}
			s := reward.TokenStrengths(b.Verdicts[k][i].Spans, b.Offsets[i])
			if a, ok := localize(q, s); ok {
				if c, ok := localize(r, s); ok {
					lx, ly = append(lx, a), append(ly, c)
				}
			}
		}
	}
	all.rho, _ = prm.Spearman(x, y)
	loc.rho, _ = prm.Spearman(lx, ly)
	return corr{all.rho, len(x)}, sum / float64(max(1, nrows)), corr{loc.rho, len(lx)}
}

// localize is ALGORITHMS.md §5's localization: q's share on the checked
// tokens (strength > 0) over their share of the tokens, where both shares
// are strictly between 0 and 1.
func localize(q, strength []float64) (float64, bool) {
	var mass [2]float64 // q off and on the checked tokens
	var count [2]int
	for t, v := range q {
		on := 0
		if strength[t] > 0 {
			on = 1
		}
		mass[on] += v
		count[on]++
	}
	total := mass[0] + mass[1]
	if count[1] == 0 || count[0] == 0 || !(total > 0) {
		return 0, false
	}
	return (mass[1] / total) * float64(len(q)) / float64(count[1]), true
}

// sampledBatch samples g responses to each of the task's first n training
// prompts and verifies them, as a training step does.
func sampledBatch(t *testing.T, ctx context.Context, p *policy.Policy, tk task.Task, n, g int) *credit.Batch {
	prompts := make([]task.Prompt, n)
	enc := make([][]int32, n)
	for i := range prompts {
		prompts[i] = tk.Prompt(task.Train, i)
		enc[i] = p.Tok.EncodePrompt(prompts[i].Text)
	}
	sc := sample.DefaultConfig()
	sc.MaxTokens, sc.Seed = 48, 7
	res, err := sample.Generate(ctx, p.Model, p.Tok, enc, g, sc)
	if err != nil {
		t.Fatal(err)
	}
	vs := tk.Rewards()
	b := &credit.Batch{Scores: make([][]float64, len(vs)), Verdicts: make([][]reward.Verdict, len(vs)), Step: 100}
	for _, r := range res {
		b.Groups = append(b.Groups, r.Prompt)
		b.Prompts = append(b.Prompts, task.ReplayBase(prompts[r.Prompt]))
		b.Responses, b.Tokens, b.Offsets = append(b.Responses, r.Text), append(b.Tokens, r.Tokens), append(b.Offsets, r.Offsets)
	}
	for k, v := range vs {
		b.Rewards = append(b.Rewards, v.Name())
		for _, r := range res {
			vd, err := v.Verify(ctx, prompts[r.Prompt], r.Text)
			if err != nil {
				t.Fatal(err)
			}
			b.Scores[k], b.Verdicts[k] = append(b.Scores[k], vd.Score), append(b.Verdicts[k], vd)
		}
	}
	return b
}
