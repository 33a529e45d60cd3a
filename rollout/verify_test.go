package rollout

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/credo-rl/credo/reward"
	_ "github.com/credo-rl/credo/reward/judge"
)

type fnVerifier struct {
	name string
	f    func(ctx context.Context, resp string) (reward.Verdict, error)
}

func (v fnVerifier) Name() string { return v.name }
func (v fnVerifier) Verify(ctx context.Context, _ reward.Prompt, resp string) (reward.Verdict, error) {
	return v.f(ctx, resp)
}

// TestVerifyAllFailures: an error, a panic and a verifier that ignores its
// time limit each give a zero score with the reason, promptly, and the
// other verdicts are kept.
func TestVerifyAllFailures(t *testing.T) {
	vs := []reward.Verifier{
		fnVerifier{"good", func(context.Context, string) (reward.Verdict, error) {
			return reward.Verdict{Score: 1, Info: "ok"}, nil
		}},
		fnVerifier{"fails", func(context.Context, string) (reward.Verdict, error) {
			return reward.Verdict{Info: "block"}, errors.New("database unreachable")
		}},
		fnVerifier{"panics", func(context.Context, string) (reward.Verdict, error) { panic("nil map") }},
		fnVerifier{"hangs", func(context.Context, string) (reward.Verdict, error) {
			time.Sleep(10 * time.Second) // ignores its context
			return reward.Verdict{Score: 1}, nil
		}},
	}
	prompts := []reward.Prompt{{ID: "p0"}, {ID: "p1"}}
	start := time.Now()
	out, errs := VerifyAll(context.Background(), vs, prompts, []string{"a", "b"}, Verify{Workers: 4, Timeout: 100 * time.Millisecond})
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("verification took %s with a 100ms limit", el)
	}
	for i := range 2 {
		if out[0][i].Score != 1 {
			t.Errorf("good verdict %d lost: %+v", i, out[0][i])
		}
		for k, want := range map[int]string{1: "database unreachable", 2: "panicked", 3: "time limit"} {
			v := out[k][i]
			if v.Score != 0 || !strings.Contains(v.Reason, want) {
				t.Errorf("%s on response %d: %+v, want score 0 with reason %q", vs[k].Name(), i, v, want)
			}
		}
	}
	if out[1][0].Info != "block" {
		t.Errorf("a failing verifier's information block was dropped: %+v", out[1][0])
	}
	if len(errs) != 6 {
		t.Errorf("%d errors reported, want 6", len(errs))
	}
}
