package service

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"testing"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/credit/topk"
	"github.com/credo-rl/credo/internal/reftest"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/golden.txt from the current code")

const goldenFile = "testdata/golden.txt"

// goldenAnswers is the server's answer to /v1/advantages, byte for byte,
// for span, gdpo and mrtpo (with top-20 replay answers), with JSON and
// packed arrays, relevance on and off, on two of §10's benchmark batches
// (smaller: 64 responses × 96 tokens × 4 rewards, every pair varying and
// 60% varying).
func goldenAnswers(t *testing.T) map[string]string {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out := map[string]string{}
	for _, vary := range []float64{1, 0.6} {
		rec := benchBatch(64, 96, 4, vary)
		for _, method := range []string{"span", "gdpo", "mrtpo"} {
			var answers []topk.Answer
			if method == "mrtpo" {
				plan, err := credit.PlanReplay(method, credit.DefaultConfig(), rec.b)
				if err != nil {
					t.Fatal(err)
				}
				answers = answersFor(plan, 20)
			}
			for _, packed := range []bool{false, true} {
				for _, relevance := range []bool{false, true} {
					w := wireBody(rec, method, map[string]any{"replay_warmup_steps": 0}, packed, answers, false)
					w["return_relevance"] = relevance
					body, err := json.Marshal(w)
					if err != nil {
						t.Fatal(err)
					}
					answer, err := s.advantages(context.Background(), body)
					if err != nil {
						t.Fatal(err)
					}
					sum := sha256.Sum256(answer)
					key := fmt.Sprintf("vary%g/%s/packed=%v/relevance=%v", vary, method, packed, relevance)
					out[key] = hex.EncodeToString(sum[:])
				}
			}
		}
	}
	return out
}

// TestGoldenAnswers pins the answers' bytes: a change meant to be only
// faster (decoding, encoding, credit) must leave testdata/golden.txt as
// it is. go test ./service -run TestGoldenAnswers -update rewrites it.
func TestGoldenAnswers(t *testing.T) {
	reftest.Golden(t, goldenFile, goldenAnswers(t), *updateGolden)
}
