package credit

import (
	"context"
	"fmt"
	"math"
)

// TopK is one replay request's answer as an inference engine gives it
// (vLLM's or SGLang's prompt log-probs): at each response position, the k
// most likely next tokens and their log-probabilities.
type TopK struct {
	K        int       // entries per position, ≥ 1
	IDs      []int32   // [T·K]: position t's entries are t·K … t·K+K−1; −1 marks an unused entry
	LogProbs []float32 // [T·K], natural-log probabilities aligned with IDs
}

// TopKError says which answer, and where in it, is malformed. Position
// and Entry are −1 when the fault is the answer's as a whole.
type TopKError struct {
	Answer, Position, Entry int
	Field                   string // "k", "ids" or "logprobs"
	Msg                     string
}

func (e *TopKError) Error() string {
	switch {
	case e.Position < 0:
		return fmt.Sprintf("replay answer %d: %s: %s", e.Answer, e.Field, e.Msg)
	case e.Entry < 0:
		return fmt.Sprintf("replay answer %d, position %d: %s: %s", e.Answer, e.Position, e.Field, e.Msg)
	}
	return fmt.Sprintf("replay answer %d, position %d, entry %d: %s: %s", e.Answer, e.Position, e.Entry, e.Field, e.Msg)
}

// topKSlack is how far over 1 the probabilities of one position may sum
// (an engine's float32 softmax), and over 0 a log-probability may be.
const topKSlack = 1e-3

// TopKReplayer is a Replayer that serves recorded top-k answers instead of
// running a policy, for trainers whose engine replays (ReplayPlan). It
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
type TopKReplayer struct {
	index   map[string]int // requestKey → answer
	answers []TopK
}

var _ Replayer = (*TopKReplayer)(nil)

// NewTopKReplayer pairs each request with its answer, answers[r] for
// reqs[r], checking their shapes: K ≥ 1 and K entries of IDs and LogProbs
// per response token. Entries' values are checked when they are used
// (Replay). Errors are *TopKError.
func NewTopKReplayer(reqs []ReplayRequest, answers []TopK) (*TopKReplayer, error) {
	if len(answers) != len(reqs) {
		return nil, &TopKError{Answer: len(answers), Position: -1, Entry: -1, Field: "answers",
			Msg: fmt.Sprintf("%d answers for %d requests", len(answers), len(reqs))}
	}
	r := &TopKReplayer{index: make(map[string]int, len(reqs)), answers: answers}
	for i, a := range answers {
		if a.K < 1 {
			return nil, &TopKError{Answer: i, Position: -1, Entry: -1, Field: "k", Msg: fmt.Sprintf("must be at least 1, got %d", a.K)}
		}
		want := len(reqs[i].Response) * a.K
		if len(a.IDs) != want {
			return nil, &TopKError{Answer: i, Position: -1, Entry: -1, Field: "ids",
				Msg: fmt.Sprintf("%d entries for %d response tokens × k = %d (want %d)", len(a.IDs), len(reqs[i].Response), a.K, want)}
		}
		if len(a.LogProbs) != want {
			return nil, &TopKError{Answer: i, Position: -1, Entry: -1, Field: "logprobs",
				Msg: fmt.Sprintf("%d entries for %d response tokens × k = %d (want %d)", len(a.LogProbs), len(reqs[i].Response), a.K, want)}
		}
		r.index[requestKey(reqs[i].Prompt, reqs[i].Response)] = i
	}
	return r, nil
}

// Replay answers each request from its recorded top-k on the common
// support of the requests with the same response tokens (see TopKReplayer):
// out[r][t] has |U_t| + 1 entries. A request without a recorded answer, an
// id below −1, an id twice at one position, a log-probability that is not
// finite or above 0, or probabilities summing above 1 at a position is an
// error (a *TopKError for the entries).
func (r *TopKReplayer) Replay(ctx context.Context, reqs []ReplayRequest) ([][][]float32, error) {
	ans := make([]int, len(reqs))
	first := map[string]int{} // response tokens → the first request with them
	same := make([]int, len(reqs))
	for i, q := range reqs {
		a, ok := r.index[requestKey(q.Prompt, q.Response)]
		if !ok {
			return nil, fmt.Errorf("replay request %d (prompt %.60q…, %d tokens) has no recorded answer", i, q.Prompt, len(q.Response))
		}
		ans[i] = a
		f, seen := first[requestKey("", q.Response)]
		if !seen {
			f = i
			first[requestKey("", q.Response)] = i
		}
		same[i] = f
	}
	groups := groupIndices(same) // the requests of each response, in request order
	out := make([][][]float32, len(reqs))
	err := parallelFor(ctx, len(groups), func(g int) error {
		members := make([]TopK, len(groups[g]))
		which := make([]int, len(groups[g]))
		for j, i := range groups[g] {
			members[j], which[j] = r.answers[ans[i]], ans[i]
		}
		rows, err := commonSupport(members, which, len(reqs[groups[g][0]].Response))
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

// supportSlot is one entry of commonSupport's per-position hash table.
type supportSlot struct {
	id, gen, at, owner int32
}

// commonSupport builds the rows of requests that share a response of T
// tokens: rows[j][t] is member j's distribution at position t on U_t plus
// the rest bucket. which[j] is member j's answer index, for errors. A first
// pass finds each U_t (and checks the entries), a second writes the rows.
func commonSupport(members []TopK, which []int, T int) ([][][]float32, error) {
	width := 0
	for _, a := range members {
		width += a.K
	}
	size := 1
	for size < 2*width {
		size <<= 1
	}
	table := make([]supportSlot, size)
	at := make([][]int32, len(members)) // at[j][t·K+e]: the entry's index in U_t, −1 unused
	for j, a := range members {
		at[j] = make([]int32, len(a.IDs))
	}
	start := make([]int, T+1) // position t's row is [start[t], start[t+1]) of a member's block
	for t := range T {
		n, err := unionAt(members, which, t, table, int32(t+1), at)
		if err != nil {
			return nil, err
		}
		start[t+1] = start[t] + n + 1
	}
	back := make([]float32, len(members)*start[T])
	rows := make([][][]float32, len(members))
	for j, a := range members {
		block := back[j*start[T] : (j+1)*start[T]]
		rows[j] = make([][]float32, T)
		for t := range T {
			row := block[start[t]:start[t+1]:start[t+1]]
			var sum float64
			for e := t * a.K; e < (t+1)*a.K; e++ {
				if u := at[j][e]; u >= 0 {
					p := expLogProb(float64(a.LogProbs[e]))
					row[u] = float32(p)
					sum += p
				}
			}
			if sum > 1+topKSlack {
				return nil, &TopKError{Answer: which[j], Position: t, Entry: -1, Field: "logprobs",
					Msg: fmt.Sprintf("the probabilities sum to %.6g, more than 1", sum)}
			}
			row[len(row)-1] = float32(max(0, 1-sum))
			rows[j][t] = row
		}
	}
	return rows, nil
}

// unionAt enters position t's entries of every member into the hash table
// (stamped gen, so earlier positions' slots count as empty), records each
// entry's index in U_t in at, checks the entries' ids and log-probabilities,
// and returns |U_t|.
func unionAt(members []TopK, which []int, t int, table []supportSlot, gen int32, at [][]int32) (int, error) {
	mask := uint32(len(table) - 1)
	n := int32(0)
	for j, a := range members {
		for e := t * a.K; e < (t+1)*a.K; e++ {
			id := a.IDs[e]
			if id == -1 {
				at[j][e] = -1
				continue
			}
			bad := func(field, msg string) error {
				return &TopKError{Answer: which[j], Position: t, Entry: e - t*a.K, Field: field, Msg: msg}
			}
			if id < 0 {
				return 0, bad("ids", fmt.Sprintf("token id %d is negative (−1 marks an unused entry)", id))
			}
			if lp := float64(a.LogProbs[e]); math.IsNaN(lp) || lp > topKSlack || math.IsInf(lp, 1) {
				return 0, bad("logprobs", fmt.Sprintf("log-probability %v must be a number ≤ 0", lp))
			}
			h := (uint32(id) * 0x9e3779b1) & mask
			for {
				s := &table[h]
				if s.gen != gen { // empty: a new member of U_t
					*s = supportSlot{id: id, gen: gen, at: n, owner: int32(j)}
					n++
					break
				}
				if s.id == id {
					if s.owner == int32(j) {
						return 0, bad("ids", fmt.Sprintf("token id %d appears twice at this position", id))
					}
					s.owner = int32(j)
					break
				}
				h = (h + 1) & mask
			}
			at[j][e] = table[h].at
		}
	}
	return int(n), nil
}

// expLogProb is e^x for a log-probability x ≤ 0 (up to topKSlack), to a
// relative 3e-10 (well under float32's 6e-8, the rows' precision) and about
// twice as fast as math.Exp, which was half of a top-20 replay's time:
// x = k·ln 2 + r with |r| ≤ ln 2 / 2, e^r by its Taylor series to r⁸.
// Below −104, where float32 has nothing left, it is 0.
func expLogProb(x float64) float64 {
	if x < -104 {
		return 0
	}
	const ln2hi, ln2lo = 6.93147180369123816490e-01, 1.90821492927058770002e-10
	k := math.Floor(x*math.Log2E + 0.5)
	r := x - k*ln2hi - k*ln2lo
	p := 1 + r*(1+r*(1.0/2+r*(1.0/6+r*(1.0/24+r*(1.0/120+r*(1.0/720+r*(1.0/5040+r*(1.0/40320))))))))
	return p * math.Float64frombits(uint64(int64(k)+1023)<<52)
}
