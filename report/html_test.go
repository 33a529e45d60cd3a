package report

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestWriteCompare(t *testing.T) {
	dir := t.TempDir()
	writeFixtureCompare(t, dir, []uint64{1, 2, 3}, 30)
	path, err := Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "report.html") {
		t.Errorf("path %s", path)
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(page)
	if len(page) > 2<<20 {
		t.Errorf("report is %d bytes, want under 2 MB for 4 methods × 3 seeds × 30 steps", len(page))
	}
	for _, want := range []string{
		"<h2 id=\"table\">Comparison</h2>", "<th>steps to 0.80</th>", "<th>final eval (greedy)</th>", "<th>ΔAUC vs grpo [95% CI] sign-flip p, t-test pt</th>", "<th>ΔAUC vs gdpo [95% CI] sign-flip p, t-test pt</th>",
		"Tool calling: the prompt offers", "What a good result looks like", "<dt>criterion</dt><dd>steps to 0.80: the first step at which a reward&#39;s moving mean over 5 steps reaches 0.80</dd>",
		`<div class="scroll" id="table-box">`, "Length and retention", "<th>regressed while another reward rose</th>", "What the runs show:", `class="headline"`,
		`stroke-dasharray="7 3"`, `<svg class="sw"`,
		"Reward curves", "format: training reward, moving mean over 5 steps", "call: localization (1 = none)",
		"Credit diagnostics", "Token heatmaps", "q · format", "A · final", "response-level method: no relevance",
		`argument &#34;from&#34; missing`, "seed 1 · step 30",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(s, "<dt>threshold</dt>") {
		t.Error("the page names a threshold line besides the criterion the table uses")
	}
	for _, m := range fixtureMethods {
		if strings.Count(s, `<td>`+m+`</td>`) < 2 {
			t.Errorf("method %s missing from the tables", m)
		}
	}
	// Self-contained: no URL, no script, no fetched resource.
	for _, bad := range []string{"http:", "https:", "<script", "src=", "url(", "@import", "ZgotmplZ"} {
		if strings.Contains(s, bad) {
			t.Errorf("report contains %q", bad)
		}
	}
	// Charts: one reward chart per reward plus concentration and localization.
	if n := strings.Count(s, `<svg class="chart"`); n != 6 {
		t.Errorf("%d charts, want 6", n)
	}
	// Heatmaps: 3 rollouts for each token-level method, 1 for grpo and gdpo.
	heads := regexp.MustCompile(`<div class="head">(\w+) `).FindAllStringSubmatch(s, -1)
	count := map[string]int{}
	for _, h := range heads {
		count[h[1]]++
	}
	if count["grpo"] != 1 || count["gdpo"] != 1 || count["span"] != 3 || count["mrtpo"] != 3 {
		t.Errorf("rollouts per method %v", count)
	}
	// The markup in the response is escaped, never live.
	if strings.Contains(s, "<think>") || strings.Contains(s, "<tool_call>") || !strings.Contains(s, "&lt;") {
		t.Error("response markup not escaped")
	}
	// Deterministic: the same directory gives the same bytes.
	if _, err := Write(dir); err != nil {
		t.Fatal(err)
	}
	again, _ := os.ReadFile(path)
	if !bytes.Equal(page, again) {
		t.Error("a second Write gave a different page")
	}
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".report.html.tmp*"))
	if len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

func TestWriteRun(t *testing.T) {
	dir := t.TempDir()
	writeFixtureRun(t, dir, "mrtpo", 5, 20, 20)
	path, err := Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := os.ReadFile(path)
	s := string(page)
	if strings.Contains(s, "response-level method") {
		t.Error("a token-level run's rollout is labelled response-level")
	}
	for _, want := range []string{"<td>mrtpo</td>", "<dd>5</dd>", "<dd>20</dd>", "q · call", "checked ["} {
		if !strings.Contains(s, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	if strings.Contains(s, "ΔAUC vs") {
		t.Error("a single run has no baseline to divide by")
	}
}

func TestWriteErrors(t *testing.T) {
	if _, err := Write(filepath.Join(t.TempDir(), "absent")); err == nil {
		t.Error("Write of a missing directory succeeded")
	}
	dir := t.TempDir()
	writeFixtureRun(t, dir, "grpo", 1, 3, 3)
	os.WriteFile(filepath.Join(dir, "metrics.jsonl"), []byte("{bad"), 0o644)
	if _, err := Write(dir); err == nil || !strings.Contains(err.Error(), "metrics.jsonl") {
		t.Errorf("Write with a torn metrics file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "report.html")); err == nil {
		t.Error("a report was written despite the error")
	}
}
