package topk

import (
	"fmt"
	"math"
	"slices"
)

// Answer is one replay request's answer as an inference engine gives it
// (vLLM's or SGLang's prompt log-probs): at each response position, the k
// most likely next tokens and their log-probabilities.
type Answer struct {
	K        int       // entries per position, ≥ 1
	IDs      []int32   // [T·K]: position t's entries are t·K … t·K+K−1; −1 marks an unused entry
	LogProbs []float32 // [T·K], natural-log probabilities aligned with IDs
}

// Error says which answer, and where in it, is malformed. Position
// and Entry are −1 when the fault is the answer's as a whole.
type Error struct {
	Answer, Position, Entry int
	Field                   string // "k", "ids" or "logprobs"
	Msg                     string
}

func (e *Error) Error() string {
	switch {
	case e.Position < 0:
		return fmt.Sprintf("replay answer %d: %s: %s", e.Answer, e.Field, e.Msg)
	case e.Entry < 0:
		return fmt.Sprintf("replay answer %d, position %d: %s: %s", e.Answer, e.Position, e.Field, e.Msg)
	}
	return fmt.Sprintf("replay answer %d, position %d, entry %d: %s: %s", e.Answer, e.Position, e.Entry, e.Field, e.Msg)
}

// slack is how far over 1 the probabilities of one position may sum
// (an engine's float32 softmax), and over 0 a log-probability may be.
const slack = 1e-3

// supportSlot is one entry of CommonSupport's per-position hash table.
type supportSlot struct {
	id, gen, at, owner int32
}

// CommonSupport builds the rows of requests that share a response of T
// tokens: rows[j][t] is member j's distribution at position t on U_t, the
// union of every member's top-k ids there (in order of first appearance,
// by member then entry), plus one rest bucket:
//
//	p(v) = exp(logprob(v)) for v in U_t among its own top-k, 0 for the other v in U_t,
//	p(rest) = max(0, 1 − Σ_v p(v))
//
// An id below −1, an id twice at one position, a log-probability that is
// not finite or above 0, or probabilities summing above 1 at a position
// is an *Error. which[j] is member j's answer index, for errors. A first
// pass finds each U_t (and checks the entries), a second writes the rows.
func CommonSupport(members []Answer, which []int, T int) ([][][]float32, error) {
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
	var probs []float64 // a member's e^logprob for every entry, used or not
	for j, a := range members {
		block := back[j*start[T] : (j+1)*start[T]]
		rows[j] = make([][]float32, T)
		probs = slices.Grow(probs[:0], len(a.LogProbs))[:len(a.LogProbs)]
		expLogProbs(probs, a.LogProbs)
		for t := range T {
			row := block[start[t]:start[t+1]:start[t+1]]
			var sum float64
			for e := t * a.K; e < (t+1)*a.K; e++ {
				if u := at[j][e]; u >= 0 {
					p := probs[e]
					row[u] = float32(p)
					sum += p
				}
			}
			if sum > 1+slack {
				return nil, &Error{Answer: which[j], Position: t, Entry: -1, Field: "logprobs",
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
func unionAt(members []Answer, which []int, t int, table []supportSlot, gen int32, at [][]int32) (int, error) {
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
				return &Error{Answer: which[j], Position: t, Entry: e - t*a.K, Field: field, Msg: msg}
			}
			if id < 0 {
				return 0, bad("ids", fmt.Sprintf("token id %d is negative (−1 marks an unused entry)", id))
			}
			if lp := float64(a.LogProbs[e]); math.IsNaN(lp) || lp > slack || math.IsInf(lp, 1) {
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

// expLogProb is e^x for a log-probability x ≤ 0 (up to slack), to a
// relative 3e-10 (well under float32's 6e-8, the rows' precision) and about
// twice as fast as math.Exp, which was half of a top-20 replay's time:
// x = k·ln 2 + r with |r| ≤ ln 2 / 2, e^r by its Taylor series to r⁸.
// Below −104, where float32 has nothing left, it is 0. Entries past the
// checks of unionAt (−1 ids) may hold anything; their values are unused.
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
