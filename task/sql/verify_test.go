package sql

import (
	"context"
	"strings"
	"testing"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

func spanTexts(resp string, spans []reward.Span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, resp[s.Start:s.End])
	}
	return out
}

func TestVerdicts(t *testing.T) {
	tk := openTask(t, 6, Options{})
	lyon := task.Prompt{ID: "lyon", Text: promptText("List the names of customers in Lyon."),
		Ref: Ref{Query: "SELECT name FROM customers WHERE city = 'Lyon'"}}
	top := task.Prompt{ID: "top", Text: promptText("List the top 3 products by price."),
		Ref: &Ref{Query: "SELECT name FROM products ORDER BY price DESC LIMIT 3", Ordered: true}}
	tests := []struct {
		name   string
		p      task.Prompt
		resp   string
		reward string
		score  float64
		reason string   // substring of Verdict.Reason
		info   string   // exact Info; "-" to skip
		spans  []string // exact span texts; nil to skip
	}{
		{"format ok", lyon, wellFormed("filter", "SELECT 1"), "format", 1, "", FormatInfo, []string{"<think>", "</think>", "<answer>", "</answer>"}},
		{"missing </answer>", lyon, "<think>a</think><answer>SELECT 1", "format", 0, "missing </answer>", FormatInfo, []string{"SELECT 1"}},
		{"no think", lyon, "<answer>SELECT 1</answer>", "format", 0, "missing <think>", FormatInfo, nil},
		{"empty answer", lyon, "<think>a</think><answer> </answer>", "format", 0, "empty", FormatInfo, []string{"<answer> </answer>"}},
		{"text after", lyon, wellFormed("a", "SELECT 1") + "!", "format", 0, "unexpected text", FormatInfo, []string{"!"}},
		{"runs", lyon, wellFormed("a", "SELECT name FROM customers"), "executes", 1, "", "", []string{"SELECT name FROM customers"}},
		{"misspelled column", lyon, wellFormed("a", "SELECT nmae FROM customers"), "executes", 0, "no such column: nmae", "Error: no such column: nmae", []string{"nmae"}},
		{"syntax error", lyon, wellFormed("a", "SELECT name FORM customers"), "executes", 0, "syntax error", `Error: near "customers": syntax error`, []string{"customers"}},
		{"format slip still runs", lyon, "<answer>SELECT 1", "executes", 1, "", "", []string{"SELECT 1"}},
		{"no answer", lyon, "<think>SELECT 1</think>", "executes", 0, "no <answer>", "", nil},
		{"same rows", lyon, wellFormed("a", "SELECT name FROM customers WHERE city = 'Lyon'"), "result", 1, "", ResultInfo(lyon.Ref.(Ref).Query), nil},
		{"same rows other order", lyon, wellFormed("a", "select NAME from customers where 'Lyon' = city order by name desc"), "result", 1, "", "-", nil},
		{"wrong literal", lyon, wellFormed("a", "SELECT name FROM customers WHERE city = 'Paris'"), "result", 0, "rows", "-", []string{"'Paris'"}},
		{"wrong column", lyon, wellFormed("a", "SELECT city FROM customers WHERE city = 'Lyon'"), "result", 0, "rows differ", "-", []string{"city"}},
		{"missing condition", lyon, wellFormed("a", "SELECT name FROM customers"), "result", 0, "rows", "-", []string{"customers"}},
		{"extra column", lyon, wellFormed("a", "SELECT name, id FROM customers WHERE city = 'Lyon'"), "result", 0, "2 columns", "-", []string{", id"}},
		{"does not run", lyon, wellFormed("a", "SELECT nmae FROM customers"), "result", 0, "does not run", "-", []string{"SELECT nmae FROM customers"}},
		{"top 3", top, wellFormed("a", "SELECT name FROM products ORDER BY price DESC LIMIT 3"), "result", 1, "", "Reference query: SELECT name FROM products ORDER BY price DESC LIMIT 3", nil},
		{"top 3 in the wrong order", top, wellFormed("a", "SELECT name FROM (SELECT name, price FROM products ORDER BY price DESC LIMIT 3) ORDER BY price"), "result", 0, "row 1", "-", nil},
		{"bottom 3", top, wellFormed("a", "SELECT name FROM products ORDER BY price LIMIT 3"), "result", 0, "row 1", "-", []string{"LIMIT"}},
	}
	rewards := map[string]reward.Verifier{}
	for _, v := range tk.Rewards() {
		rewards[v.Name()] = v
	}
	for _, tt := range tests {
		v, err := rewards[tt.reward].Verify(context.Background(), tt.p, tt.resp)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if v.Score != tt.score || !strings.Contains(v.Reason, tt.reason) || (tt.score == 0) != (v.Reason != "") {
			t.Errorf("%s: %s = %v (%q), want %v (%q)", tt.name, tt.reward, v.Score, v.Reason, tt.score, tt.reason)
		}
		if tt.info != "-" && v.Info != tt.info {
			t.Errorf("%s: Info %q, want %q", tt.name, v.Info, tt.info)
		}
		if got := spanTexts(tt.resp, v.Spans); tt.spans != nil && strings.Join(got, "|") != strings.Join(tt.spans, "|") {
			t.Errorf("%s: spans %q, want %q", tt.name, got, tt.spans)
		}
	}
}

func TestExtractAnswer(t *testing.T) {
	tests := []struct {
		resp, want string
		ok         bool
	}{
		{"<think>a</think><answer>SELECT 1</answer>", "SELECT 1", true},
		{"<think>a <answer>x</answer></think><answer>SELECT 2</answer>", "SELECT 2", true},
		{"<think>a</think><answer>SELECT 3", "SELECT 3", true},
		{"<answer>SELECT 4</answer> trailing", "SELECT 4", true},
		{"<think>no answer</think>", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, start, ok := extractAnswer(tt.resp)
		if got != tt.want || ok != tt.ok || ok && tt.resp[start:start+len(got)] != got {
			t.Errorf("extractAnswer(%q) = %q, %d, %v; want %q, %v", tt.resp, got, start, ok, tt.want, tt.ok)
		}
	}
}
