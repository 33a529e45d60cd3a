package rollout

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/credo-rl/credo/reward"
)

// VerifyAll scores every response with every verifier on a bounded pool
// of v.Workers workers, each verdict under its own time limit v.Timeout. A verifier that fails
// or times out gives that response a zero score with the reason; the batch
// goes on. It returns verdicts [K][N] and the failures, for the log and
// the error counts.
func VerifyAll(ctx context.Context, vs []reward.Verifier, prompts []reward.Prompt, responses []string, v Verify) ([][]reward.Verdict, []VerifyFailure) {
	K, N := len(vs), len(responses)
	out := make([][]reward.Verdict, K)
	for k := range out {
		out[k] = make([]reward.Verdict, N)
	}
	type job struct{ k, i int }
	jobs := make(chan job)
	var mu sync.Mutex
	var errs []VerifyFailure
	var wg sync.WaitGroup
	for range max(1, v.Workers) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				vd, err := verifyOne(ctx, vs[j.k], prompts[j.i], responses[j.i], v.Timeout)
				out[j.k][j.i] = vd
				if err != nil {
					mu.Lock()
					errs = append(errs, VerifyFailure{j.k, fmt.Errorf("%s on response %d (%s): %w", vs[j.k].Name(), j.i, prompts[j.i].ID, err)})
					mu.Unlock()
				}
			}
		}()
	}
	for k := range K {
		for i := range N {
			jobs <- job{k, i}
		}
	}
	close(jobs)
	wg.Wait()
	return out, errs
}

// VerifyFailure is a verdict that failed: the verifier of reward K (an
// index into the verifiers) returned an error, and the response scored 0.
type VerifyFailure struct {
	K   int
	Err error
}

func (f VerifyFailure) Error() string { return f.Err.Error() }
func (f VerifyFailure) Unwrap() error { return f.Err }

// FailureCounts is the number of failures of each of K rewards, and the
// last failure of each (nil when none).
func FailureCounts(fs []VerifyFailure, K int) ([]int, []error) {
	n, last := make([]int, K), make([]error, K)
	for _, f := range fs {
		n[f.K]++
		last[f.K] = f.Err
	}
	return n, last
}

// verifyOne runs one verifier under a time limit. Verifiers honour their
// context; one that does not is abandoned at the limit (its goroutine ends
// when it returns) so the step is never held up.
func verifyOne(ctx context.Context, v reward.Verifier, p reward.Prompt, resp string, limit time.Duration) (verdict reward.Verdict, err error) {
	if limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	type result struct {
		v   reward.Verdict
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("verifier panicked: %v", r)}
			}
		}()
		v, err := v.Verify(ctx, p, resp)
		done <- result{v, err}
	}()
	var r result
	select {
	case r = <-done:
	case <-ctx.Done():
		r = result{err: fmt.Errorf("no verdict within %s: %w", limit, ctx.Err())}
	}
	if r.err != nil {
		reason := r.err.Error()
		if errors.Is(r.err, context.DeadlineExceeded) {
			reason = "time limit exceeded: " + reason
		}
		// Keep what the verifier said (its information block) but score 0.
		return reward.Verdict{Score: 0, Info: r.v.Info, Reason: reason}, r.err
	}
	return r.v, nil
}
