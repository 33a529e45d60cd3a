package arith

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

const good17 = "17 + 25 = 42\n42 * 3 = 126\n126 - 8 = 118\nanswer: 118"

var (
	megaSteps   = strings.Repeat("1 + 1 = 2\n", 100_000) + "answer: 118"
	megaInvalid = strings.Repeat("\xff", 1<<20)
	megaDigits  = "answer: " + strings.Repeat("7", 1<<20)
	megaLines   = strings.Repeat("x\n", 1<<19) + "answer: 118"
)

// spanTexts lists the text of each span.
func spanTexts(resp string, spans []reward.Span) []string {
	var out []string
	for _, s := range spans {
		out = append(out, resp[s.Start:s.End])
	}
	return out
}

func checkVerdict(t *testing.T, name, resp string, v reward.Verdict) {
	t.Helper()
	if v.Score != 0 && v.Score != 1 {
		t.Errorf("%s: score %g", name, v.Score)
	}
	if (v.Score == 0) != (v.Reason != "") {
		t.Errorf("%s: score %g with reason %q", name, v.Score, v.Reason)
	}
	if len(v.Spans) > maxSpans+1 {
		t.Errorf("%s: %d spans", name, len(v.Spans))
	}
	for _, s := range v.Spans {
		if s.Start < 0 || s.End > len(resp) || s.Start > s.End {
			t.Errorf("%s: span %+v outside %d bytes", name, s, len(resp))
		}
	}
}

func TestAnswerVerifier(t *testing.T) {
	tests := []struct {
		name, resp string
		score      float64
		spans      []string // texts of the spans, in order; nil skips the check
	}{
		{"right", good17, 1, []string{"118"}},
		{"right, sloppy format", "The result is 118.\nAnswer: 118.", 1, []string{"118."}},
		{"right with commas and zeros", "answer: 0,118.00", 1, []string{"0,118.00"}},
		{"gsm8k marker", "17 + 25 = 42\n#### 118", 1, []string{"118"}},
		{"last answer line counts", "answer: 5\nanswer: 118\nDone.", 1, []string{"118"}},
		// The rule docs/SERVICE.md states: the line begins (after spaces)
		// with the marker, in any case; the first field after it is read.
		{"indented, upper case, dollars", "  ANSWER: $118 dollars", 1, []string{"$118"}},
		{"marker inside a line", "so the answer: 118", 0, nil},
		{"wrong answer, slip", "17 + 25 = 43\n43 * 3 = 129\n129 - 8 = 121\nanswer: 121", 0, []string{"43", "121"}},
		{"wrong copy", good17[:len(good17)-3] + "117", 0, []string{"117"}},
		{"wrong, malformed first step", "17 plus 25 is 42\n42 * 3 = 126\nanswer: 1", 0, []string{"17 plus 25 is 42", "1"}},
		{"wrong step after the answer", "answer: 117\n17 + 25 = 43", 0, []string{"117", "43"}},
		{"no answer line", "17 + 25 = 42\n42 * 3 = 126\n126 - 8 = 118", 0, nil},
		{"no answer line, slip", "17 + 25 = 41\nthe answer is 118", 0, []string{"41"}},
		{"not a number", "17 + 25 = 42\nanswer: many", 0, []string{"many"}},
		{"empty answer", "answer:", 0, []string{""}},
		{"empty", "", 0, nil},
		{"invalid UTF-8", "17 + 25 = 42\nanswer: \xff118", 0, []string{"\xff118"}},
		{"1 MB steps", megaSteps, 1, []string{"118"}},
		{"1 MB invalid UTF-8", megaInvalid, 0, []string{megaInvalid}},
		{"1 MB number", megaDigits, 0, nil},
		{"1 MB lines", megaLines, 1, []string{"118"}},
	}
	for _, tt := range tests {
		v, err := AnswerVerifier{}.Verify(context.Background(), example17, tt.resp)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		checkVerdict(t, tt.name, tt.resp, v)
		if v.Score != tt.score || v.Info != "Reference answer: 118" {
			t.Errorf("%s: score %g info %q (%s), want %g", tt.name, v.Score, v.Info, v.Reason, tt.score)
		}
		if got := spanTexts(tt.resp, v.Spans); tt.spans != nil && strings.Join(got, "|") != strings.Join(tt.spans, "|") {
			t.Errorf("%s: spans %q, want %q", tt.name, got, tt.spans)
		}
	}
}

func TestFormatVerifier(t *testing.T) {
	tests := []struct {
		name, resp string
		score      float64
		spans      []string
		reason     string // a substring of the reason
	}{
		{"right", good17, 1, []string{"=", "=", "=", "answer: 118"}, ""},
		{"wrong arithmetic is still well formed", "17 + 25 = 43\nanswer: 7", 1, []string{"=", "answer: 7"}, ""},
		{"spaces, blank lines, CRLF", "\n 17+25=42 \r\n\r\nanswer:118\r\n", 1, []string{"=", "answer:118"}, ""},
		{"step in words", "17 plus 25 equals 42\n42 * 3 = 126\nanswer: 126", 0, []string{"17 plus 25 equals 42"}, "1 malformed line"},
		{"no answer line", "17 + 25 = 42\n42 * 3 = 126", 0, []string{"42 * 3 = 126"}, "no answer line"},
		{"prose instead of the answer line", "17 + 25 = 42\nSo the result is 42.", 0, []string{"So the result is 42."}, "no answer line"},
		{"extra trailing line", good17 + "\nDone.", 0, []string{"Done."}, "malformed"},
		{"step after the answer line", "17 + 25 = 42\nanswer: 42\n42 * 3 = 126", 0, []string{"42 * 3 = 126"}, "after the answer line"},
		{"two answer lines", "17 + 25 = 42\nanswer: 42\nanswer: 42", 0, []string{"answer: 42"}, "2 answer lines"},
		{"capital Answer", "17 + 25 = 42\nAnswer: 42", 0, []string{"Answer: 42"}, "want exactly"},
		{"non-integer answer", "17 + 25 = 42\nanswer: 42.", 0, []string{"answer: 42."}, "want exactly"},
		{"gsm8k marker", "17 + 25 = 42\n#### 42", 0, nil, "no answer line"},
		{"no step", "answer: 118", 0, []string{"answer: 118"}, "no step"},
		{"empty", "", 0, nil, "no answer line"},
		{"invalid UTF-8", "17 + 25 = 42\n\xff\nanswer: 42", 0, []string{"\xff"}, "malformed"},
		{"1 MB steps", megaSteps, 1, nil, ""},
		{"1 MB invalid UTF-8", megaInvalid, 0, []string{megaInvalid}, "malformed"},
		{"1 MB lines", megaLines, 0, nil, "524288 malformed"},
	}
	for _, tt := range tests {
		v, err := FormatVerifier{}.Verify(context.Background(), example17, tt.resp)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		checkVerdict(t, tt.name, tt.resp, v)
		if v.Score != tt.score || v.Info != FormatBlock || !strings.Contains(v.Reason, tt.reason) {
			t.Errorf("%s: score %g reason %q, want %g and %q", tt.name, v.Score, v.Reason, tt.score, tt.reason)
		}
		if got := spanTexts(tt.resp, v.Spans); tt.spans != nil && strings.Join(got, "|") != strings.Join(tt.spans, "|") {
			t.Errorf("%s: spans %q, want %q", tt.name, got, tt.spans)
		}
	}
}

// Beyond maxSpans the last span stretches over the rest.
func TestFormatSpansCapped(t *testing.T) {
	v, err := FormatVerifier{}.Verify(context.Background(), example17, megaLines)
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Spans) != maxSpans {
		t.Fatalf("%d spans, want %d", len(v.Spans), maxSpans)
	}
	if last := v.Spans[maxSpans-1]; last.Start != 2*(maxSpans-1) || last.End != len(megaLines)-len("\nanswer: 118") {
		t.Errorf("last span %+v", last)
	}
}

func TestVerifiersContextAndBadPrompts(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, v := range mk(0).Rewards() {
		if _, err := v.Verify(ctx, example17, good17); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a cancelled context: error %v", v.Name(), err)
		}
	}
	noRef := task.Prompt{ID: "x", Text: "Compute 1 + 2."}
	if _, err := (AnswerVerifier{}).Verify(context.Background(), noRef, "answer: 3"); err == nil || !strings.Contains(err.Error(), "no arith.Ref") {
		t.Errorf("answer without a Ref: error %v", err)
	}
	if v, err := (FormatVerifier{}).Verify(context.Background(), noRef, "1 + 2 = 3\nanswer: 3"); err != nil || v.Score != 1 {
		t.Errorf("format needs no Ref: %+v, %v", v, err)
	}
	ptr := example17
	r := example17.Ref.(Ref)
	ptr.Ref = &r
	if v, err := (AnswerVerifier{}).Verify(context.Background(), ptr, good17); err != nil || v.Score != 1 {
		t.Errorf("a *Ref works too: %+v, %v", v, err)
	}
	gsm := task.Prompt{ID: "g", Ref: Ref{Answer: "3", GSM8K: true}}
	if v, err := (FormatVerifier{}).Verify(context.Background(), gsm, "1 + 2 = 3\nanswer: 3"); err != nil || !v.Skip || v.Score != 0 {
		t.Errorf("format on GSM8K: %+v, %v, want Skip", v, err)
	}
}
