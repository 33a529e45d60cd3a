package replay

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/tokenizer"
)

// Forwarder is what replay needs of the policy: next-token distributions
// over given sequences, without gradients, and the context they must fit.
// *model.Model is one.
type Forwarder interface {
	ContextLength() int
	// Distributions gives, for each sequence, the next-token distribution
	// at every position from from[i] on [N][T_i − from_i][V].
	Distributions(ctx context.Context, seqs [][]int32, from []int) ([][][]float32, error)
}

// sharer is a Forwarder's optional capability: Distributions over
// sequences that share prefixes, each prefix run once (model.Model has it).
type sharer interface {
	SharedDistributions(ctx context.Context, s model.Shared, from []int) ([][][]float32, error)
}

var (
	_ Forwarder = (*model.Model)(nil)
	_ sharer    = (*model.Model)(nil)
)

// concurrentCalls is how many SharedDistributions calls a replay runs at
// once (each holds up to distBytes of probability tables).
const concurrentCalls = 2

// Chunk is the rows of a training step's replay calls. Small calls
// keep their [rows, heads, suffix, prefix] score tables in cache: at
// README's toolcall setting replay's share of a step was 17.4–18.8% with
// 16 rows, 20.0–20.9% with 32 and 21.1–22.7% with 64 (alternating 8-step
// runs); 8 and 12 rows did no better than 16.
const Chunk = 16

// Replayer is the policy as the credit package's Replayer: it re-reads
// already-sampled responses after rebuilt prompts, without gradients, in
// calls of at most chunk sequences.
type Replayer struct {
	m     Forwarder
	tok   tokenizer.Tokenizer
	chunk int
}

// New is m with its tokenizer as a credit.Replayer whose calls hold at
// most chunk sequences (Chunk for a training step).
func New(m Forwarder, tok tokenizer.Tokenizer, chunk int) Replayer {
	return Replayer{m: m, tok: tok, chunk: max(chunk, 1)}
}

var _ credit.Replayer = Replayer{}

// Replay renders each prompt with the chat template, appends the response
// tokens and returns the next-token distribution at every response
// position. A prompt too long for the context loses its oldest tokens
// (the blocks and the answer cue are at its end).
//
// Replay's sequences share long prefixes: a response's variants differ
// only from the first block that one of them leaves out, and a group's
// responses share their prompt. With a policy that can (sharer), the
// batch is cut into runs of sequences with a common prefix
// (sharePrefixes), each run's prefix runs once per call, and calls group
// rows of similar suffix length (lengthClass), so few are padded far.
func (r Replayer) Replay(ctx context.Context, reqs []credit.ReplayRequest) ([][][]float32, error) {
	seqs, from, err := r.sequences(reqs)
	if err != nil {
		return nil, err
	}
	sh, shares := r.m.(sharer)
	if len(from) == 0 || slices.Min(from) < 2 { // a one-token prompt leaves no prefix to share
		shares = false
	}
	if !shares {
		return r.whole(ctx, seqs, from)
	}
	return r.shared(ctx, sh, seqs, from)
}

// sequences renders each request's prompt, appends its response and says
// where the response starts. A prompt too long for the context loses its
// oldest tokens.
func (r Replayer) sequences(reqs []credit.ReplayRequest) (seqs [][]int32, from []int, err error) {
	maxLen := r.m.ContextLength()
	seqs, from = make([][]int32, len(reqs)), make([]int, len(reqs))
	for i, req := range reqs {
		prompt := r.tok.EncodePrompt(req.Prompt)
		if over := len(prompt) + len(req.Response) - maxLen; over > 0 {
			if over >= len(prompt) {
				return nil, nil, fmt.Errorf("replay: a response of %d tokens does not fit the context of %d", len(req.Response), maxLen)
			}
			prompt = prompt[over:]
		}
		seqs[i] = append(append([]int32(nil), prompt...), req.Response...)
		from[i] = len(prompt)
	}
	return seqs, from, nil
}

// whole replays sequences as they are, chunk at a time.
func (r Replayer) whole(ctx context.Context, seqs [][]int32, from []int) ([][][]float32, error) {
	out := make([][][]float32, len(seqs))
	for start := 0; start < len(seqs); start += r.chunk {
		end := min(start+r.chunk, len(seqs))
		dist, err := r.m.Distributions(ctx, seqs[start:end], from[start:end])
		if err != nil {
			return nil, fmt.Errorf("replay: %w", err)
		}
		copy(out[start:end], dist)
	}
	return out, nil
}

// shared replays sequences with their common prefixes run once. Sorted,
// sequences with a common prefix are adjacent: they are cut into runs
// that share it, then called by suffix length class, so a call's rows
// are padded to a length near their own (the sort is by content, and a
// long response would otherwise pad a whole call), in calls of at most
// chunk rows that keep each prefix's rows together when they fit
// (callParts): a prefix split across calls runs in each.
func (r Replayer) shared(ctx context.Context, sh sharer, seqs [][]int32, from []int) ([][][]float32, error) {
	order := make([]int, len(seqs)) // order[j]: the request at sorted position j
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return slices.Compare(seqs[a], seqs[b]) })
	sorted, at := make([][]int32, len(order)), make([]int, len(order))
	for j, i := range order {
		sorted[j], at[j] = seqs[i], from[i]
	}
	s := sharePrefixes(sorted, at)
	rows := make([]int, len(order)) // sorted positions, grouped by length class
	for j := range rows {
		rows[j] = j
	}
	slices.SortStableFunc(rows, func(a, b int) int {
		return cmp.Compare(lengthClass(len(s.Suffixes[a])), lengthClass(len(s.Suffixes[b])))
	})
	out := make([][][]float32, len(seqs))
	err := concurrently(ctx, callParts(s, rows, r.chunk), func(ctx context.Context, part []int) error {
		starts := make([]int, len(part))
		for k, j := range part {
			starts[k] = at[j]
		}
		dist, err := sh.SharedDistributions(ctx, s.Select(part), starts)
		if err != nil {
			return fmt.Errorf("replay: %w", err)
		}
		for k, j := range part {
			out[order[j]] = dist[k]
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// concurrently runs call on every part, concurrentCalls at a time: one
// call leaves part of the second core idle (its small ops run on one), and
// the second fills it. The first failure cancels the calls after it and is
// the one returned; ctx's error is returned when it ends first.
func concurrently(ctx context.Context, parts [][]int, call func(context.Context, []int) error) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	slots := make(chan struct{}, concurrentCalls)
	for _, part := range parts {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			if ctx.Err() != nil {
				return
			}
			if err := call(ctx, part); err != nil {
				mu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				mu.Unlock()
				cancel()
			}
		})
	}
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// sharePrefixes cuts sorted sequences into runs that share a prefix and
// returns them as a model.Shared batch, in the same order. A prefix
// stops before from[i] − 1, the position whose prediction is the first
// one asked for. A run grows while sharing still saves tokens: a run of
// n sequences with a common prefix of p tokens saves (n − 1)·p, so a
// sequence that shortens the prefix to l joins when n·l ≥ (n − 1)·p.
// Then adjacent runs whose prefixes start alike are nested (nestRuns).
func sharePrefixes(seqs [][]int32, from []int) model.Shared {
	var runs []prefixRun
	for lo := 0; lo < len(seqs); {
		p := from[lo] - 1
		hi := lo + 1
		for ; hi < len(seqs); hi++ {
			l := min(p, from[hi]-1, commonPrefix(seqs[hi-1], seqs[hi]))
			if l < 1 || (hi-lo+1)*l < (hi-lo)*p {
				break
			}
			p = l
		}
		runs = append(runs, prefixRun{prefix: seqs[lo][:p], lo: lo, hi: hi})
		lo = hi
	}
	return nestRuns(seqs, runs)
}

// prefixRun is sequences lo … hi−1, which share prefix.
type prefixRun struct {
	prefix []int32
	lo, hi int
}

// nestRuns merges adjacent runs into one stored prefix when that saves
// tokens, the members of the merged runs extending as much of it as they
// share (model.Shared.Use). Replay's prompt without its last block is the
// start of the prompt with every block: two runs that repeat that start,
// nested, run it once. Merging run r (prefix of p tokens sharing l with
// the stored prefix S) either keeps S, r's n members then reading p − l
// more suffix tokens each (cost n·(p − l) − p), or stores r's prefix, the
// members so far each reading use − min(use, l) more (cost Σ … − |S|);
// the cheaper is taken when it saves tokens.
func nestRuns(seqs [][]int32, runs []prefixRun) model.Shared {
	s := model.Shared{Owner: make([]int, len(seqs)), Suffixes: make([][]int32, len(seqs)), Use: make([]int, len(seqs))}
	var stored []int32
	var members []int // sequences of the current group
	flush := func() {
		if members == nil {
			return
		}
		s.Prefixes = append(s.Prefixes, stored)
		for _, i := range members {
			s.Owner[i] = len(s.Prefixes) - 1
			s.Suffixes[i] = seqs[i][s.Use[i]:]
		}
		members = nil
	}
	for _, r := range runs {
		p := len(r.prefix)
		l := commonPrefix(stored, r.prefix)
		keep := (r.hi-r.lo)*(p-l) - p // store S
		take := -len(stored)          // store r's prefix
		for _, i := range members {
			take += s.Use[i] - min(s.Use[i], l)
		}
		switch {
		case members == nil || l < 1 || min(keep, take) >= 0:
			flush()
			stored = r.prefix
			for i := r.lo; i < r.hi; i++ {
				s.Use[i] = p
			}
		case keep <= take:
			for i := r.lo; i < r.hi; i++ {
				s.Use[i] = l
			}
		default:
			for _, i := range members {
				s.Use[i] = min(s.Use[i], l)
			}
			stored = r.prefix
			for i := r.lo; i < r.hi; i++ {
				s.Use[i] = p
			}
		}
		for i := r.lo; i < r.hi; i++ {
			members = append(members, i)
		}
	}
	flush()
	return s
}

// callParts cuts rows (sorted positions of s, grouped by length class,
// each prefix's rows adjacent) into calls of at most chunk rows, one
// length class a call. A prefix runs once in every call that holds one of
// its rows, so a call takes a prefix's rows whole when they fit: it is
// closed early rather than split them, and rows of a prefix with more than
// chunk rows are spread evenly over the fewest calls.
func callParts(s model.Shared, rows []int, chunk int) [][]int {
	var parts [][]int
	var cur []int
	closeCall := func() {
		if len(cur) > 0 {
			parts = append(parts, cur)
			cur = nil
		}
	}
	for lo := 0; lo < len(rows); {
		hi := lo + 1 // rows[lo:hi]: one prefix's rows in one length class
		class := lengthClass(len(s.Suffixes[rows[lo]]))
		for hi < len(rows) && s.Owner[rows[hi]] == s.Owner[rows[lo]] && lengthClass(len(s.Suffixes[rows[hi]])) == class {
			hi++
		}
		if len(cur) > 0 && (len(cur)+hi-lo > chunk || lengthClass(len(s.Suffixes[cur[0]])) != class) {
			closeCall()
		}
		if n := hi - lo; n > chunk {
			calls := (n + chunk - 1) / chunk
			for c := range calls {
				parts = append(parts, rows[lo+c*n/calls:lo+(c+1)*n/calls])
			}
		} else {
			cur = append(cur, rows[lo:hi]...)
		}
		lo = hi
	}
	closeCall()
	return parts
}

// lengthClass groups suffix lengths by powers of two from 128 up:
// ≤ 128, ≤ 256, ≤ 512, …; calls are padded within a class.
func lengthClass(n int) int {
	c := 0
	for ; n > 128; n = (n + 1) / 2 {
		c++
	}
	return c
}

// commonPrefix is the length of the longest common prefix of a and b.
func commonPrefix(a, b []int32) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}
