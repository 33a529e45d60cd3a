package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/credo-rl/credo/internal/shareddata"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/task/ifeval"
)

// startVerifier runs examples/verifier.py on a free port of 127.0.0.1
// with args and returns its /verify URL; the process ends with the test.
func startVerifier(t *testing.T, args ...string) string {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed: skipping the test that runs examples/verifier.py")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, py, append([]string{filepath.Join("..", "..", "examples", "verifier.py"), "0"}, args...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); cmd.Wait() })
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(out).ReadString('\n')
		line <- s
	}()
	select {
	case s := <-line:
		url, ok := strings.CutPrefix(strings.TrimSpace(s), "listening on ")
		if !ok || !strings.HasPrefix(url, "http://127.0.0.1:") {
			t.Fatalf("verifier.py printed %q", s)
		}
		return url
	case <-time.After(20 * time.Second):
		t.Fatal("verifier.py did not start within 20 s")
	}
	return ""
}

// verifierStats is the verifier's GET /stats.
func verifierStats(t *testing.T, url string) (requests int, scoreSum float64) {
	t.Helper()
	resp, err := http.Get(strings.TrimSuffix(url, "/verify") + "/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var s struct {
		Requests int     `json:"requests"`
		ScoreSum float64 `json:"score_sum"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s.Requests, s.ScoreSum
}

// gsm8kFile writes n GSM8K-format records.
func gsm8kFile(t *testing.T, n int) string {
	t.Helper()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, `{"question": "What is %d plus %d?", "answer": "%d + %d = %d\n#### %d"}`+"\n", i, i+1, i, i+1, 2*i+1, 2*i+1)
	}
	p := filepath.Join(t.TempDir(), "mine.jsonl")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestTrainOnRecordsWithOwnVerifier: `credo train` on a records file with
// examples/verifier.py as one more reward. The verifier is called for
// every sampled response, its scores are the reward's in metrics.jsonl,
// its requests are counted there, and the prompts are the records'.
func TestTrainOnRecordsWithOwnVerifier(t *testing.T) {
	url := startVerifier(t, "--pattern", "[aeiou]", "--want", "2")
	ctx := context.Background()
	out := filepath.Join(t.TempDir(), "run")
	steps, prompts, group := 2, 2, 2
	code, _, errw := credo(ctx, "train", "--init", tinyCheckpoint(t), "--out", out,
		"--records", gsm8kFile(t, 20), "--format", "gsm8k", "--test-fraction", "0.25",
		"--verifier", "name=vowels,url="+url+",timeout=10s",
		"--method", "gdpo", "--steps", fmt.Sprint(steps), "--prompts", fmt.Sprint(prompts), "--group", fmt.Sprint(group),
		"--max-tokens", "12", "--eval-prompts", "2", "--samples-per-step", "4")
	if code != 0 {
		t.Fatalf("train: exit %d\n%s", code, errw)
	}
	if !strings.Contains(errw, "records ") || !strings.Contains(errw, "20 gsm8k prompts") {
		t.Errorf("no records report in:\n%s", errw)
	}
	var cfg struct {
		Task      string   `json:"task"`
		Records   string   `json:"records"`
		Verifiers []string `json:"verifiers"`
	}
	if err := run.ReadJSON(filepath.Join(out, "config.json"), &cfg); err != nil || cfg.Task != "records-gsm8k" || !filepath.IsAbs(cfg.Records) || len(cfg.Verifiers) != 1 {
		t.Errorf("config.json %+v, %v", cfg, err)
	}
	var last map[string]any
	meanSum, n := 0.0, 0
	err := run.ReadLines(filepath.Join(out, run.MetricsFile), func(b []byte) error {
		last = nil
		if err := json.Unmarshal(b, &last); err != nil {
			return err
		}
		if m, ok := last[run.RewardKey("vowels", "mean")].(float64); ok {
			meanSum += m
			n++
		}
		return nil
	})
	if err != nil || n != steps {
		t.Fatalf("metrics: %v, %d steps with reward/vowels/mean", err, n)
	}
	requests, scoreSum := verifierStats(t, url)
	// Training asks about prompts × group responses a step; the start-up
	// probe and the evaluations ask more.
	if trained := steps * prompts * group; requests < trained+1 || last["verifier/vowels/requests"].(float64) < float64(trained) {
		t.Errorf("verifier answered %d requests, metrics count %v; want at least %d", requests, last["verifier/vowels/requests"], trained+1)
	}
	if last["verifier/vowels/errors"].(float64) != 0 {
		t.Errorf("verifier errors %v", last["verifier/vowels/errors"])
	}
	if meanSum == 0 && scoreSum > 0 {
		t.Errorf("the verifier gave scores (sum %v) but the reward's means are all 0", scoreSum)
	}
	var sample run.Sample
	err = run.ReadLines(filepath.Join(out, run.SamplesFile), func(b []byte) error { return json.Unmarshal(b, &sample) })
	if err != nil || !strings.HasPrefix(sample.Prompt, "What is ") || !strings.Contains(sample.Prompt, "answer: N") {
		t.Errorf("samples: prompt %q, %v", sample.Prompt, err)
	}
	found := false
	for _, v := range sample.Verdicts {
		found = found || v.Reward == "vowels" && v.Info == "Include 2 matches of the pattern [aeiou]."
	}
	if !found {
		t.Errorf("no verdict of the verifier's with its block in %+v", sample.Verdicts)
	}
	// eval of the run takes its records from run-config.json
	code, o, errw := credo(ctx, "eval", "--model", out, "--prompts", "2", "--max-tokens", "8")
	if code != 0 || !strings.Contains(o, `"task": "records-gsm8k"`) || !strings.Contains(errw, "task records-gsm8k") {
		t.Errorf("eval of the run: exit %d\n%s\n%s", code, o, errw)
	}
}

// TestRecordsFlagsRefused: a records file without its format, and a
// verifier spec without a url, stop train before anything is written.
func TestRecordsFlagsRefused(t *testing.T) {
	ctx := context.Background()
	warm := tinyCheckpoint(t)
	file := gsm8kFile(t, 20)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--records", file}, "needs its format"},
		{[]string{"--records", file, "--format", "csv"}, `unknown format "csv"`},
		{[]string{"--records", file, "--format", "gsm8k", "--verifier", "name=v"}, "url: required"},
		{[]string{"--records", file, "--format", "gsm8k", "--verifier", "name=answer,url=" + closedURL(t)}, "already the name of a reward"},
		{[]string{"--records", file, "--format", "gsm8k", "--verifier", "name=v,url=" + closedURL(t)}, "does not answer a probe"},
	} {
		out := filepath.Join(t.TempDir(), "run")
		code, _, errw := credo(ctx, append([]string{"train", "--init", warm, "--out", out, "--steps", "1", "--test-fraction", "0.25"}, c.args...)...)
		if code == 0 || !strings.Contains(errw, c.want) {
			t.Errorf("%v: exit %d, want %q in\n%s", c.args, code, c.want, errw)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%v: %s was written", c.args, out)
		}
	}
}

// TestSFTOnRecords: sft warms up on a records file's references and names
// the records in warmup.json, so train --init takes them; records without
// references (IFEval) are refused with the reason.
func TestSFTOnRecords(t *testing.T) {
	ctx := context.Background()
	warm := filepath.Join(t.TempDir(), "warm")
	file := gsm8kFile(t, 20)
	code, _, errw := credo(ctx, "sft", "--out", warm, "--size", "tiny", "--steps", "2", "--batch", "2", "--demos", "6",
		"--eval-prompts", "1", "--eval-max-tokens", "8", "--records", file, "--format", "gsm8k", "--test-fraction", "0.25")
	if code != 0 {
		t.Fatalf("sft: exit %d\n%s", code, errw)
	}
	var rec struct {
		Config struct {
			Task, Records, Format string
		} `json:"config"`
	}
	if err := run.ReadJSON(filepath.Join(warm, run.WarmupFile), &rec); err != nil || rec.Config.Task != "records-gsm8k" || rec.Config.Records == "" || rec.Config.Format != "gsm8k" {
		t.Errorf("warmup.json %+v, %v", rec, err)
	}
	out := filepath.Join(t.TempDir(), "run")
	code, _, errw = credo(ctx, "train", "--init", warm, "--out", out, "--steps", "1", "--prompts", "1", "--group", "2", "--max-tokens", "8", "--eval-prompts", "1")
	if code != 0 || !strings.Contains(errw, "task records-gsm8k") {
		t.Fatalf("train --init: exit %d\n%s", code, errw)
	}
	// the warm-up pinned the file: once it changes, train --init refuses it
	os.WriteFile(file, []byte(`{"question": "x?", "answer": "#### 1"}`+"\n"), 0o644)
	code, _, errw = credo(ctx, "train", "--init", warm, "--out", filepath.Join(t.TempDir(), "r2"), "--steps", "1")
	if code == 0 || !strings.Contains(errw, "changed since the run was set up") {
		t.Errorf("train --init on a changed file: exit %d\n%s", code, errw)
	}
	ifeval := filepath.Join(t.TempDir(), "ifeval.jsonl")
	var b strings.Builder
	for i := range 10 {
		fmt.Fprintf(&b, `{"key": %d, "prompt": "Write %d words. No commas.", "instruction_id_list": ["punctuation:no_comma"], "kwargs": [{}]}`+"\n", i, i)
	}
	os.WriteFile(ifeval, []byte(b.String()), 0o644)
	code, _, errw = credo(ctx, "sft", "--out", filepath.Join(t.TempDir(), "w2"), "--size", "tiny", "--steps", "1", "--records", ifeval, "--format", "ifeval", "--test-fraction", "0.5")
	if code == 0 || !strings.Contains(errw, "ifeval records carry no reference responses") {
		t.Errorf("sft on ifeval records: exit %d\n%s", code, errw)
	}
}

// TestEvalAndCalibrateOnRecords: eval and calibrate take a records file
// and a verifier of one's own like train: the test split's prompts, the
// verifier's reward among the format's.
func TestEvalAndCalibrateOnRecords(t *testing.T) {
	url := startVerifier(t, "--pattern", "[aeiou]")
	ctx := context.Background()
	ckpt, file := tinyCheckpoint(t), gsm8kFile(t, 20)
	common := []string{"--records", file, "--format", "gsm8k", "--test-fraction", "0.25", "--verifier", "name=vowels,url=" + url}
	code, out, errw := credo(ctx, append([]string{"eval", "--model", ckpt, "--prompts", "2", "--max-tokens", "8"}, common...)...)
	var res struct {
		Task    string `json:"task"`
		Rewards struct {
			Greedy map[string]float64 `json:"greedy"`
		} `json:"rewards"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil || res.Task != "records-gsm8k" || !strings.Contains(out, `"vowels"`) {
		t.Errorf("eval: exit %d, %+v\n%s\n%s", code, res, out, errw)
	}
	code, out, errw = credo(ctx, append([]string{"calibrate", "--init", ckpt, "--prompts", "2", "--group", "2", "--max-tokens", "8"}, common...)...)
	if code != 0 || !strings.Contains(out, "vowels") || !strings.Contains(out, "answer") {
		t.Errorf("calibrate: exit %d\n%s\n%s", code, out, errw)
	}
	if n, _ := verifierStats(t, url); n < 2+2*2 {
		t.Errorf("the verifier answered %d requests", n)
	}
}

// TestCompareTakesRecords: compare's --records (or records in
// --train-config) go to the training and the warm-ups alike, and name the
// task after them.
func TestCompareTakesRecords(t *testing.T) {
	file := gsm8kFile(t, 20)
	cfg := filepath.Join(t.TempDir(), "train.yaml")
	os.WriteFile(cfg, []byte("records: "+file+"\nformat: gsm8k\ntest_fraction: 0.25\nverifiers: [\"name=v,url=http://127.0.0.1:9/v\"]\n"), 0o644)
	for _, args := range [][]string{
		{"--records", file, "--format", "gsm8k", "--test-fraction", "0.25", "--verifier", "name=v,url=http://127.0.0.1:9/v"},
		{"--train-config", cfg},
	} {
		_, c, err := compareConfig("compare", "", defaultCompare(), append([]string{"--out", t.TempDir()}, args...), io.Discard, io.Discard)
		if err != nil || c.Train.Records != file || c.Warmup.Source != c.Train.Source || c.Train.Task != "records-gsm8k" || c.Warmup.Task != "records-gsm8k" || len(c.Train.Verifiers) != 1 {
			t.Errorf("%v: %v\ntrain %+v %q\nwarm-up %+v %q", args, err, c.Train.Source, c.Train.Task, c.Warmup.Source, c.Warmup.Task)
		}
	}
}

// TestMRTPOOnIFEvalRecords: MRTPO trains on IFEval records, replaying each
// prompt without the sentences that state an instruction's reward (its
// block); a reward per instruction id present.
func TestMRTPOOnIFEvalRecords(t *testing.T) {
	data, err := os.ReadFile(shareddata.Path(t, "ifeval/input_data.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")[:40]
	file := filepath.Join(t.TempDir(), "ifeval.jsonl")
	os.WriteFile(file, []byte(strings.Join(lines, "")), 0o644)
	out := filepath.Join(t.TempDir(), "run")
	code, _, errw := credo(context.Background(), "train", "--init", tinyCheckpoint(t), "--out", out, "--records", file, "--format", "ifeval",
		"--method", "mrtpo", "--steps", "1", "--prompts", "2", "--group", "2", "--max-tokens", "8", "--eval-prompts", "1", "--samples-per-step", "4")
	if code != 0 {
		t.Fatalf("train: exit %d\n%s", code, errw)
	}
	blocks := 0
	err = run.ReadLines(filepath.Join(out, run.SamplesFile), func(b []byte) error {
		var s run.Sample
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		for _, v := range s.Verdicts {
			if !v.Skip && v.Info != "" && strings.Contains(s.Prompt, v.Info) {
				blocks++ // the block is the prompt's own sentence
			}
		}
		return nil
	})
	if err != nil || blocks == 0 {
		t.Errorf("samples: %v, %d verdicts whose block is a sentence of the prompt", err, blocks)
	}
}

// TestEvalIFEvalRecords: eval on IFEval records with --split all answers
// every record once, in batches, gives IFEval's four figures over all of
// them and per split, counts the responses cut off, and keeps each
// response with its strict and loose verdicts.
func TestEvalIFEvalRecords(t *testing.T) {
	ctx := context.Background()
	file := filepath.Join(t.TempDir(), "ifeval.jsonl")
	var b strings.Builder
	for i := range 8 {
		fmt.Fprintf(&b, `{"key": %d, "prompt": "Write %d words. No commas. All lowercase.", "instruction_id_list": ["punctuation:no_comma", "change_case:english_lowercase"], "kwargs": [{}, {}]}`+"\n", i, i)
	}
	os.WriteFile(file, []byte(b.String()), 0o644)
	responses := filepath.Join(t.TempDir(), "responses.jsonl")
	code, out, errw := credo(ctx, "eval", "--model", tinyCheckpoint(t), "--records", file, "--format", "ifeval", "--test-fraction", "0.5",
		"--split", "all", "--batch", "3", "--max-tokens", "4", "--responses", responses)
	var res struct {
		Prompts   int                        `json:"prompts"`
		Truncated int                        `json:"truncated"`
		IFEval    map[string]ifeval.Accuracy `json:"ifeval"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("eval: exit %d\n%s\n%s", code, out, errw)
	}
	all, train, test := res.IFEval["all"], res.IFEval["train"], res.IFEval["test"]
	if res.Prompts != 8 || all.Prompts != 8 || all.Instructions != 16 || train.Prompts+test.Prompts != 8 || train.Prompts == 0 || test.Prompts == 0 {
		t.Errorf("prompts %d, ifeval %+v", res.Prompts, res.IFEval)
	}
	if all.InstructionLoose < all.InstructionStrict || all.PromptLoose < all.PromptStrict || all.Kinds["punctuation:no_comma"].N != 8 {
		t.Errorf("ifeval all %+v", all)
	}
	if !strings.Contains(errw, "ifeval, all (8 prompts, 16 instructions): prompt-level strict") || !strings.Contains(errw, "greedy: 6 of 8 prompts answered") {
		t.Errorf("stderr:\n%s", errw)
	}
	data, err := os.ReadFile(responses)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	cut := 0
	for i, l := range lines {
		var r struct {
			ID     string `json:"id"`
			Split  string `json:"split"`
			Finish string `json:"finish"`
			ifeval.Judged
		}
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.ID != fmt.Sprintf("ifeval-%d", i) || (r.Split != "train" && r.Split != "test") || len(r.Strict) != 2 || len(r.Loose) != 2 {
			t.Errorf("line %d: %v %+v", i, err, r)
		}
		if r.Finish == "length" {
			cut++
		}
	}
	if len(lines) != 8 || cut != res.Truncated {
		t.Errorf("%d lines, %d cut off, eval says %d", len(lines), cut, res.Truncated)
	}
	// --split all is for records, and evaluates them all
	for _, args := range [][]string{{"--split", "all"}, {"--split", "all", "--records", file, "--format", "ifeval", "--prompts", "2"}, {"--split", "train"}} {
		if code, _, errw := credo(ctx, append([]string{"eval", "--model", tinyCheckpoint(t)}, args...)...); code != 2 {
			t.Errorf("eval %v: exit %d\n%s", args, code, errw)
		}
	}
}
