package arith

import (
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/task"
)

// example17 is "Compute (17 + 25) * 3 - 8." with its reference.
var example17 = task.Prompt{
	ID:   "example17",
	Text: "Compute (17 + 25) * 3 - 8.",
	Ref:  Ref{Expr: "(17 + 25) * 3 - 8", Answer: "118", Numbers: []int64{17, 25, 3, 8}},
}

func TestSteps(t *testing.T) {
	type step struct {
		text    string
		correct bool
	}
	tests := []struct {
		name     string
		response string
		want     []step
	}{
		{"correct", "17 + 25 = 42\n42 * 3 = 126\n126 - 8 = 118\nanswer: 118",
			[]step{{"17 + 25 = 42", true}, {"42 * 3 = 126", true}, {"126 - 8 = 118", true}}},
		{"wrong result propagates", "17 + 25 = 43\n43 * 3 = 129\n129 - 8 = 121\nanswer: 121",
			[]step{{"17 + 25 = 43", false}, {"43 * 3 = 129", false}, {"129 - 8 = 121", false}}},
		{"wrong result late", "17 + 25 = 42\n42 * 3 = 126\n126 - 8 = 117\nanswer: 117",
			[]step{{"17 + 25 = 42", true}, {"42 * 3 = 126", true}, {"126 - 8 = 117", false}}},
		{"wrong operand", "18 + 25 = 43\n43 * 3 = 129\n3 * 8 = 24\nanswer: 121",
			[]step{{"18 + 25 = 43", false}, {"43 * 3 = 129", false}, {"3 * 8 = 24", true}}},
		{"unavailable operand (skipped step)", "42 * 3 = 126\n126 - 8 = 118\nanswer: 118",
			[]step{{"42 * 3 = 126", false}, {"126 - 8 = 118", false}}},
		{"operand from a later step", "126 - 8 = 118\n17 + 25 = 42\n42 * 3 = 126\nanswer: 118",
			[]step{{"126 - 8 = 118", false}, {"17 + 25 = 42", true}, {"42 * 3 = 126", true}}},
		{"reused numbers are available", "17 + 17 = 34\n34 + 34 = 68",
			[]step{{"17 + 17 = 34", true}, {"34 + 34 = 68", true}}},
		{"malformed", "17 plus 25 equals 42\n42 * 3 = 126\nanswer: 118",
			[]step{{"17 plus 25 equals 42", false}, {"42 * 3 = 126", false}}},
		{"blank lines, CRLF and spaces", "\n  17 + 25 = 42  \r\n\r\n42 * 3 = 126\r\nAnswer: 126\r\n",
			[]step{{"17 + 25 = 42", true}, {"42 * 3 = 126", true}}},
		{"trailing prose is a wrong step", "17 + 25 = 42\nanswer: 42\nDone.",
			[]step{{"17 + 25 = 42", true}, {"Done.", false}}},
		{"#### line is not a step", "17 + 25 = 42\n#### 42", []step{{"17 + 25 = 42", true}}},
		{"invalid UTF-8", "17 + 25 = 42\n\xff\xfe\nanswer: 42", []step{{"17 + 25 = 42", true}, {"\xff\xfe", false}}},
		{"empty", "", nil},
		{"answer only", "answer: 118", nil},
	}
	for _, tt := range tests {
		got := Steps(example17, tt.response)
		var texts []step
		for _, s := range got {
			texts = append(texts, step{tt.response[s.Start:s.End], s.Correct})
		}
		if !slices.Equal(texts, tt.want) {
			t.Errorf("%s: Steps = %v, want %v", tt.name, texts, tt.want)
		}
	}
}

func TestStepsWithoutRefUsesPromptText(t *testing.T) {
	p := task.Prompt{Text: "A house costs $80,000 and repairs cost 50,000; the price rose by 1.5 times."}
	got := Steps(p, "80000 + 50000 = 130000\n1 + 5 = 6\n130000 * 2 = 260000")
	want := []bool{true, false, false} // 1 and 5 are parts of 1.5, not numbers; 2 is nowhere
	if len(got) != len(want) {
		t.Fatalf("Steps = %v", got)
	}
	for i, s := range got {
		if s.Correct != want[i] {
			t.Errorf("step %d correct = %v, want %v", i, s.Correct, want[i])
		}
	}
}

func TestPromptNumbers(t *testing.T) {
	tests := []struct {
		text string
		want []int64
	}{
		{"Compute (17 + 25) * 3 - 8.", []int64{17, 25, 3, 8}},
		{"$80,000 and 1.5 and 150% of 3, 4", []int64{80000, 150, 3, 4}},
		{"12345678901234567890 and 7", []int64{7}},
		{"no numbers", nil},
		{"1,", []int64{1}},
	}
	for _, tt := range tests {
		if got := promptNumbers(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("promptNumbers(%q) = %v, want %v", tt.text, got, tt.want)
		}
	}
}

// A megabyte of steps stays linear (the availability set turns into a
// map) and every range is its line.
func TestStepsLarge(t *testing.T) {
	var b strings.Builder
	prev := int64(17)
	for b.Len() < 1<<20 {
		b.WriteString(Eq{A: prev, Op: '+', B: 8, C: prev + 8}.String())
		b.WriteString(Separator)
		prev += 8
	}
	resp := b.String()
	steps := Steps(example17, resp)
	if want := strings.Count(resp, Separator); len(steps) != want {
		t.Fatalf("%d steps, want %d", len(steps), want)
	}
	for i, s := range steps {
		if !s.Correct || strings.Contains(resp[s.Start:s.End], Separator) {
			t.Fatalf("step %d %q correct=%v", i, resp[s.Start:s.End], s.Correct)
		}
	}
}

func TestAvail(t *testing.T) {
	a := newAvail([]int64{1, 2})
	for v := int64(3); v < 200; v++ {
		if a.has(v) {
			t.Fatalf("%d available before it was added", v)
		}
		a.add(v)
		a.add(v)
	}
	for v := int64(1); v < 200; v++ {
		if !a.has(v) {
			t.Fatalf("%d missing", v)
		}
	}
	if a.has(0) || a.has(200) {
		t.Fatal("spurious value")
	}
}
