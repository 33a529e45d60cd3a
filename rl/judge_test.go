package rl

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	_ "github.com/credo-rl/credo/reward/judge"
)

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
