package sql

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/credo-rl/credo/task"
)

// seeds are shared by the fuzz targets: well-formed and broken answers,
// hostile queries, invalid UTF-8, and a 1 MB string.
func seeds() []string {
	s := []string{
		"SELECT name FROM customers WHERE city = 'Lyon'",
		"<think>a</think><answer>SELECT 1</answer>",
		"<think>a</think><answer>SELECT 1",
		"<answer></answer>",
		"SELECT 'it''s' -- comment\n;",
		"SELECT 1; DROP TABLE customers",
		"WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c WHERE x < 0",
		"SELECT \"a\"\"b\" FROM [t] /* open",
		"SELECT (((1",
		"\xff\xfe<answer>\xc3(</answer>",
		"SELECT '\xff' FROM customers",
		strings.Repeat("SELECT 1 UNION ", 70_000),
	}
	return s
}

func FuzzExtractAnswer(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, resp string) {
		q, start, ok := extractAnswer(resp)
		if ok && (start < 0 || start+len(q) > len(resp) || resp[start:start+len(q)] != q) {
			t.Fatalf("extractAnswer(%q) = %q at %d: not the response's text", resp, q, start)
		}
	})
}

func FuzzCheckQuery(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, q string) {
		prev := 0
		for _, tk := range lex(q) {
			if tk.start < prev || tk.end <= tk.start || tk.end > len(q) {
				t.Fatalf("lex(%q): token %+v after %d", q, tk, prev)
			}
			prev = tk.end
		}
		c := checkQuery(q, 10_000)
		if c.start < 0 || c.end > len(q) || c.start > c.end {
			t.Fatalf("checkQuery(%q): span %d..%d", q, c.start, c.end)
		}
		if c.err == "" && (c.body == "" || !strings.HasPrefix(q, c.body)) {
			t.Fatalf("checkQuery(%q) accepted with body %q", q, c.body)
		}
		if c.err == "" && strings.Contains(q, "\x00") {
			t.Fatalf("checkQuery(%q) accepted a NUL byte", q)
		}
	})
}

func FuzzDiffSpans(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s, "SELECT name FROM customers WHERE city = 'Lyon'")
	}
	f.Fuzz(func(t *testing.T, q, ref string) {
		spans := diffSpans(q, ref)
		if len(spans) == 0 {
			t.Fatal("no spans")
		}
		for _, s := range spans {
			if s.Start < 0 || s.End > len(q) || s.Start > s.End {
				t.Fatalf("diffSpans(%q, %q): span %+v", q, ref, s)
			}
		}
	})
}

// FuzzVerify runs every verifier on arbitrary responses, as they are and
// wrapped in the format: no panic, no error, spans inside the response, a
// reason for every 0, and never much longer than the time limit.
func FuzzVerify(f *testing.F) {
	for _, s := range seeds() {
		f.Add(s)
	}
	tk := openTask(f, 31, Options{TimeLimit: 100 * time.Millisecond})
	p := tk.Prompt(task.Train, 0)
	f.Fuzz(func(t *testing.T, s string) {
		for _, resp := range []string{s, wellFormed("t", s)} {
			for _, v := range tk.Rewards() {
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				start := time.Now()
				vd, err := v.Verify(ctx, p, resp)
				elapsed := time.Since(start)
				cancel()
				if err != nil {
					t.Fatalf("%s.Verify(%q): %v", v.Name(), resp, err)
				}
				if elapsed > time.Second {
					t.Fatalf("%s.Verify(%q) took %v", v.Name(), resp, elapsed)
				}
				if vd.Score == 0 && vd.Reason == "" || vd.Score != 0 && vd.Score != 1 {
					t.Fatalf("%s.Verify(%q) = %v with reason %q", v.Name(), resp, vd.Score, vd.Reason)
				}
				for _, sp := range vd.Spans {
					if sp.Start < 0 || sp.End > len(resp) || sp.Start > sp.End {
						t.Fatalf("%s.Verify(%q): span %+v", v.Name(), resp, sp)
					}
				}
			}
		}
	})
}
