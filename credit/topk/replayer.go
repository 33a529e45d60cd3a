package topk

import (
	"context"
	"fmt"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/internal/parallel"
)

// Replayer is a credit.Replayer that serves recorded top-k answers instead of
// running a policy, for trainers whose engine replays (credit.PlanReplay). It
// turns them into distributions over a common support, so that JS between
// any two requests of a response is defined: at response position t the
// support is the union U_t of the top-k ids of every request with that
// response's tokens (in order of first appearance, by request then entry),
// plus one last bucket. A request's row is
//
//	p(v) = exp(logprob(v)) for v in U_t among its own top-k, 0 for the other v in U_t,
//	p(rest) = max(0, 1 − Σ_v p(v))
//
// Tokens outside U_t share the rest bucket (which can only lower JS), and a
// token of U_t outside a request's own top-k is counted in its rest bucket
// rather than at its own small probability; both vanish as k grows
// (docs/SERVICE.md §9 measures them).
type Replayer struct {
	index   map[string]int // credit.ReplayRequest.Key → answer
	answers []Answer
}

var _ credit.Replayer = (*Replayer)(nil)

// NewReplayer pairs each request with its answer, answers[r] for
// reqs[r], checking their shapes: K ≥ 1 and K entries of IDs and LogProbs
// per response token. Entries' values are checked when they are used
// (Replay). Errors are *Error.
func NewReplayer(reqs []credit.ReplayRequest, answers []Answer) (*Replayer, error) {
	if len(answers) != len(reqs) {
		return nil, &Error{Answer: len(answers), Position: -1, Entry: -1, Field: "answers",
			Msg: fmt.Sprintf("%d answers for %d requests", len(answers), len(reqs))}
	}
	r := &Replayer{index: make(map[string]int, len(reqs)), answers: answers}
	for i, a := range answers {
		if a.K < 1 {
			return nil, &Error{Answer: i, Position: -1, Entry: -1, Field: "k", Msg: fmt.Sprintf("must be at least 1, got %d", a.K)}
		}
		want := len(reqs[i].Response) * a.K
		if len(a.IDs) != want {
			return nil, &Error{Answer: i, Position: -1, Entry: -1, Field: "ids",
				Msg: fmt.Sprintf("%d entries for %d response tokens × k = %d (want %d)", len(a.IDs), len(reqs[i].Response), a.K, want)}
		}
		if len(a.LogProbs) != want {
			return nil, &Error{Answer: i, Position: -1, Entry: -1, Field: "logprobs",
				Msg: fmt.Sprintf("%d entries for %d response tokens × k = %d (want %d)", len(a.LogProbs), len(reqs[i].Response), a.K, want)}
		}
		r.index[reqs[i].Key()] = i
	}
	return r, nil
}

// Replay answers each request from its recorded top-k on the common
// support of the requests with the same response tokens (see Replayer):
// out[r][t] has |U_t| + 1 entries. A request without a recorded answer, an
// id below −1, an id twice at one position, a log-probability that is not
// finite or above 0, or probabilities summing above 1 at a position is an
// error (a *Error for the entries).
func (r *Replayer) Replay(ctx context.Context, reqs []credit.ReplayRequest) ([][][]float32, error) {
	ans := make([]int, len(reqs))
	var groups [][]int       // the requests of each response, in request order
	slot := map[string]int{} // response tokens → its group
	for i, q := range reqs {
		a, ok := r.index[q.Key()]
		if !ok {
			return nil, fmt.Errorf("replay request %d (prompt %.60q…, %d tokens) has no recorded answer", i, q.Prompt, len(q.Response))
		}
		ans[i] = a
		key := credit.ReplayRequest{Response: q.Response}.Key()
		g, seen := slot[key]
		if !seen {
			g = len(groups)
			slot[key] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], i)
	}
	out := make([][][]float32, len(reqs))
	err := parallel.For(ctx, len(groups), func(g int) error {
		members := make([]Answer, len(groups[g]))
		which := make([]int, len(groups[g]))
		for j, i := range groups[g] {
			members[j], which[j] = r.answers[ans[i]], ans[i]
		}
		rows, err := CommonSupport(members, which, len(reqs[groups[g][0]].Response))
		if err != nil {
			return err
		}
		for j, i := range groups[g] {
			out[i] = rows[j]
		}
		return nil
	})
	return out, err
}
