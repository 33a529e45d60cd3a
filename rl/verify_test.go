package rl

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
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

// TestJudgeFailureRunGoesOn: a judge whose server passes the start-up
// check and then answers 500 forever scores 0 with a reason, counted in the
// metrics; with max_verify_errors 1 training carries on (by default it
// stops: TestJudgeErrorsStopRun).
func TestJudgeFailureRunGoesOn(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		var req struct {
			MaxTokens int `json:"max_tokens"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		if req.MaxTokens == 1 { // the start-up check
			io.WriteString(w, `{"choices":[{"message":{"content":"OK"}}]}`)
			return
		}
		http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusInternalServerError)
	}))
	defer srv.Close()
	c := microConfig(t, "toolcall", "span")
	c.Steps, c.EvalPrompts, c.MaxVerifyErrors = 2, 0, 1
	c.Judges = []string{"name=quality,url=" + srv.URL + "/v1,model=m,retries=0,timeout=2s"}
	tr := newTrainer(t, c, false)
	if err := tr.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	ms := readMetrics(t, c.Out)
	if len(ms) != 2 || ms[0]["verify/errors"].(float64) == 0 || ms[0]["verify/errors/quality"].(float64) == 0 || ms[0]["reward/quality/mean"] != 0.0 {
		t.Errorf("metrics %v", ms)
	}
	if hits.Load() <= 2 {
		t.Error("the judge server was never asked for a verdict")
	}
}
