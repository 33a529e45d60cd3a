package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// handEvals is an evals.jsonl written by hand: rewards a and b on four
// test prompts (b does not apply to the fourth), three evaluations.
//
//	step 10: a 1 1 0 1 (mean 0.75)   b 0 0 1 — (1/3)
//	step 20: a 1 0 1 1 (0.75)        b 1 0 1 — (2/3)
//	step 30: a 1 1 1 1 (1)           b 0 0 1 — (1/3)
//
// 10 → 20: b rose, a did not: a is counted (it passed on prompts 1, 2
// and 4, and fails on prompt 2 at step 20: 1 of 3), b is not (a did not
// rise). 20 → 30: a rose: b is counted (passed on prompts 1 and 3, fails
// on prompt 1 at step 30: 1 of 2), a is not. In all 2 of 5, over 2
// (interval, reward) pairs.
const handEvals = `{"step":10,"greedy":{"a":[1,1,0,1],"b":[0,0,1,null]}}
{"step":20,"greedy":{"a":[1,0,1,1],"b":[1,0,1,null]}}
{"step":30,"greedy":{"a":[1,1,1,1],"b":[0,0,1,null]}}
`

func TestRetention(t *testing.T) {
	for _, tc := range []struct {
		name  string
		evals string
		want  Retention
		rate  float64
	}{
		{"by hand", handEvals, Retention{Regressed: 2, Passed: 5, Intervals: 2, Runs: 1}, 0.4},
		// A partial score is not a pass, and falling from 1 to 0.5 is a
		// regression; a prompt a reward skips at either end is left out;
		// a reward missing from the next evaluation is not compared.
		{"partial scores and gaps", `{"step":1,"greedy":{"a":[1,0.5,1,null],"b":[0,0],"c":[1]}}
{"step":2,"greedy":{"a":[0.5,1,null,1],"b":[1,1]}}`, Retention{Regressed: 1, Passed: 1, Intervals: 1, Runs: 1}, 1},
		{"one evaluation", `{"step":5,"greedy":{"a":[1],"b":[0]}}`, Retention{}, nan},
		{"nothing rose", `{"step":1,"greedy":{"a":[1,1],"b":[1,0]}}
{"step":2,"greedy":{"a":[0,1],"b":[1,0]}}`, Retention{Runs: 1}, nan},
		{"no file", "", Retention{}, nan},
	} {
		t.Run(tc.name, func(t *testing.T) {
			evals, err := ParseEvals(strings.NewReader(tc.evals))
			if err != nil {
				t.Fatal(err)
			}
			got := RetentionOf(evals)
			if got != tc.want || !same(got.Rate(), tc.rate) {
				t.Errorf("RetentionOf = %+v (rate %v), want %+v (%v)", got, got.Rate(), tc.want, tc.rate)
			}
		})
	}
}

func TestParseEvalsErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"step":2,"greedy":{}}` + "\n" + `{"step":2,"greedy":{}}`, "line 2: evaluation at step 2 after step 2"},
		{`{"step":-1,"greedy":{}}`, "line 1: evaluation at step -1"},
		{`{"step":1,"greedy":{"a":["x"]}}`, "line 1"},
		{`{"step":1,"greedy":`, "line 1"},
	} {
		if _, err := ParseEvals(strings.NewReader(tc.in)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseEvals(%q): error %v, want %q", tc.in, err, tc.want)
		}
	}
}

// TestRetentionInTable: the report reads evals.jsonl from run
// directories, pools a method's runs, shows — for a run without the file,
// and says which file is broken.
func TestRetentionInTable(t *testing.T) {
	dir := t.TempDir()
	var runs []*Run
	for i, m := range []string{"gdpo", "span", "span"} {
		rd := filepath.Join(dir, m, string(rune('1'+i)))
		writeFixtureRun(t, rd, m, uint64(i+1), 3, 3)
		os.Remove(filepath.Join(rd, "evals.jsonl"))
		if m == "span" {
			if err := os.WriteFile(filepath.Join(rd, "evals.jsonl"), []byte(handEvals), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		r, err := LoadRun(rd)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, r)
	}
	rows := Table(&Comparison{Methods: []string{"gdpo", "span"}, Threshold: 0.8, Window: 1, Runs: runs})
	if r := rows[len(rows)-1]; r.Method != "span" || r.Retention != (Retention{Regressed: 4, Passed: 10, Intervals: 4, Runs: 2}) {
		t.Errorf("span's retention %+v, want the hand-made file's counts twice", r.Retention)
	}
	md := Markdown(rows)
	var lines []string
	for _, l := range strings.Split(md, "\n") {
		if strings.HasPrefix(l, "| gdpo | 1 |") || strings.HasPrefix(l, "| span | 2 |") {
			lines = append(lines, l)
		}
	}
	if len(lines) != 2 || !strings.HasSuffix(lines[0], " | — |") || !strings.HasSuffix(lines[1], " | 40.0% (4/10) |") {
		t.Errorf("per-method lines %q: want gdpo without evals.jsonl (—) and span's 4 of 10:\n%s", lines, md)
	}
	bad := filepath.Join(dir, "span", "2", "evals.jsonl")
	os.WriteFile(bad, []byte(`{"step":3}`+"\n"+`{"step":1}`), 0o644)
	if _, err := LoadRun(filepath.Dir(bad)); err == nil || !strings.Contains(err.Error(), "evals.jsonl: line 2") {
		t.Errorf("a damaged evals.jsonl: %v", err)
	}
}
