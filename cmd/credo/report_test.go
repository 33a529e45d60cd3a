package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeReportRun writes a small run directory as `credo train` would.
func writeReportRun(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"config.json": `{"task":"toolcall","method":"span","steps":4,"seed":3}`,
		"metrics.jsonl": `{"step":0,"reward/format/mean":0.5,"reward/call/mean":0.1,"reward/total/mean":0.6,"time/step":1,"response/length":20,"credit/overhead":0.1}
{"step":1,"reward/format/mean":0.9,"reward/call/mean":0.2,"reward/total/mean":1.1,"time/step":1,"response/length":22,"credit/overhead":0.1,"loss/kl":null}
{"step":2,"reward/format/mean":1,"reward/call/mean":0.3,"reward/total/mean":1.3,"time/step":1,"response/length":24,"credit/overhead":0.1,"credit/concentration/call":0.3,"credit/localization/call":2.5}
{"step":3,"reward/format/mean":1,"reward/call/mean":0.4,"reward/total/mean":1.4,"time/step":1,"response/length":24,"credit/overhead":0.1,"eval/greedy/format":1,"eval/greedy/call":0.5}
`,
		"samples.jsonl": `{"step":3,"index":0,"prompt":"User: hi","response":"<a> b","tokens":["<a>"," b",""],"offsets":[[0,3],[3,5],[5,5]],"advantages":[0.5,-0.5,0],"advantage":0,"relevance":{"call":[0,1,0]},"verdicts":[{"reward":"format","score":1,"spans":[{"Start":0,"End":3,"Strength":0}]},{"reward":"call","score":0,"reason":"no call"}]}
`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestReport(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "run")
	writeReportRun(t, dir)
	var out, errw bytes.Buffer
	if err := runReport(ctx, []string{dir}, &out, &errw); err != nil {
		t.Fatalf("report: %v\n%s", err, errw.String())
	}
	want := filepath.Join(dir, "report.html")
	if strings.TrimSpace(out.String()) != want {
		t.Errorf("printed %q, want the path %q", out.String(), want)
	}
	page, err := os.ReadFile(want)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"credo report: toolcall", "<td>span</td>", "<td>format</td>", "<td>3 (1/1)</td>", "not reached (0/1)", "q · call", "no call"} {
		if !strings.Contains(string(page), s) {
			t.Errorf("page lacks %q", s)
		}
	}
	// Flags after the directory, and overrides of the threshold.
	other := filepath.Join(t.TempDir(), "elsewhere.html")
	out.Reset()
	if err := runReport(ctx, []string{dir, "--out", other, "--threshold", "0.3", "--window", "1"}, &out, &errw); err != nil {
		t.Fatal(err)
	}
	page, err = os.ReadFile(other)
	if err != nil || strings.TrimSpace(out.String()) != other {
		t.Fatalf("--out: %v, printed %q", err, out.String())
	}
	if !strings.Contains(string(page), "<th>steps to 0.30</th>") || !strings.Contains(string(page), "<td>1 (1/1)</td>") || !strings.Contains(string(page), "<td>3 (1/1)</td>") {
		t.Error("--threshold 0.3 --window 1 not applied: format reaches 0.3 at step 1, call at step 3")
	}
}

func TestReportUsage(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "run")
	writeReportRun(t, dir)
	for _, tc := range []struct {
		args  []string
		usage bool   // a usageError (exit code 2)
		help  bool   // flag.ErrHelp (exit code 0)
		want  string // in the error, on stderr, or (help) on stdout
	}{
		{nil, true, false, "exactly one run or compare directory, got 0"},
		{[]string{dir, dir}, true, false, "got 2 arguments"},
		{[]string{"--out"}, true, false, "--out needs a value"},
		{[]string{"--window", "-2", dir}, true, false, "must not be negative"},
		{[]string{"--bogus", dir}, true, false, "unknown flag --bogus"},
		{[]string{"--help"}, false, true, "Usage: credo report [flags] DIR"},
		{[]string{dir, "-h"}, false, true, "--threshold float"},
		{[]string{filepath.Join(dir, "absent")}, true, false, "neither a compare directory"},
		{[]string{"--", "-odd"}, true, false, "-odd is neither"},
	} {
		var out, errw bytes.Buffer
		err := runReport(ctx, tc.args, &out, &errw)
		if got := errors.As(err, new(usageError)); got != tc.usage {
			t.Errorf("%q: error %v, usage error %v want %v", tc.args, err, got, tc.usage)
		}
		if got := errors.Is(err, flag.ErrHelp); got != tc.help {
			t.Errorf("%q: error %v, help %v want %v", tc.args, err, got, tc.help)
		}
		if msg := out.String() + " " + errw.String() + " " + fmt.Sprint(err); !strings.Contains(msg, tc.want) {
			t.Errorf("%q: %q not in %s", tc.args, tc.want, msg)
		}
		if err == nil {
			t.Errorf("%q: no error", tc.args)
		}
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if err := runReport(cancelled, []string{dir}, &bytes.Buffer{}, &bytes.Buffer{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}
