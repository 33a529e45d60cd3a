package prm

import (
	"slices"
	"testing"
)

func TestCarry(t *testing.T) {
	for _, tc := range []struct {
		name   string
		from   [][2]int
		values []float64
		to     [][2]int
		want   []float64
	}{
		{"identity", [][2]int{{0, 1}, {1, 2}, {2, 3}}, []float64{1, 2, 3}, [][2]int{{0, 1}, {1, 2}, {2, 3}}, []float64{1, 2, 3}},
		{"merge into coarser", [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}}, []float64{1, 2, 3, 4}, [][2]int{{0, 3}, {3, 4}}, []float64{6, 4}},
		{"split evenly into finer", [][2]int{{0, 4}}, []float64{8}, [][2]int{{0, 1}, {1, 2}, {2, 4}}, []float64{8.0 / 3, 8.0 / 3, 8.0 / 3}},
		{"straddling tokens", [][2]int{{0, 2}, {2, 4}}, []float64{2, 4}, [][2]int{{0, 1}, {1, 3}, {3, 4}}, []float64{1, 1 + 2, 2}},
		{"empty to-token gets nothing", [][2]int{{0, 2}}, []float64{2}, [][2]int{{0, 2}, {2, 2}}, []float64{2, 0}},
		{"empty from-token is dropped", [][2]int{{0, 0}, {0, 1}}, []float64{5, 1}, [][2]int{{0, 1}}, []float64{1}},
		{"uncovered bytes are dropped", [][2]int{{0, 1}, {1, 2}, {2, 3}}, []float64{1, 2, 3}, [][2]int{{0, 2}}, []float64{3}},
		{"gap between to-tokens", [][2]int{{0, 4}}, []float64{4}, [][2]int{{0, 1}, {3, 4}}, []float64{2, 2}},
		{"no to-tokens", [][2]int{{0, 1}}, []float64{1}, nil, []float64{}},
	} {
		got := Carry(tc.from, tc.values, tc.to)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestTokenRange(t *testing.T) {
	toks := [][2]int{{0, 2}, {2, 3}, {3, 3}, {3, 6}, {6, 7}, {7, 7}}
	for _, tc := range []struct {
		a, b, from int
		start, end int
	}{
		{0, 2, 0, 0, 1},
		{1, 4, 0, 0, 4}, // touches tokens 0, 1 and 3 (2 is empty, inside)
		{3, 5, 0, 3, 4}, // the empty token 2 before it is left out
		{4, 7, 4, 4, 5}, // token 3 went to the previous step
		{6, 7, 0, 4, 5}, // the trailing empty token is not a step's
		{7, 9, 0, 6, 6}, // nothing overlaps: an empty range after the tokens
		{0, 2, 3, 3, 3}, // already taken by an earlier step
	} {
		s, e := tokenRange(toks, tc.a, tc.b, tc.from)
		if s != tc.start || e != tc.end {
			t.Errorf("tokenRange(%d, %d, from %d) = [%d, %d), want [%d, %d)", tc.a, tc.b, tc.from, s, e, tc.start, tc.end)
		}
	}
}

func TestSeparatorSplitter(t *testing.T) {
	for _, tc := range []struct {
		sep, text string
		want      []string
	}{
		{"\n", "1 + 2 = 3\n3 * 4 = 12\nanswer: 12", []string{"1 + 2 = 3", "3 * 4 = 12", "answer: 12"}},
		{"\n", "  a  \n\n \n b", []string{"a", "b"}},
		{"\n\n", "step one\nstill one\n\nstep two\n\n", []string{"step one\nstill one", "step two"}},
		{"\n\n", "", nil},
		{"", " whole ", []string{"whole"}},
		{"::", "a::b::::c", []string{"a", "b", "c"}},
	} {
		var got []string
		for _, r := range SeparatorSplitter(tc.sep)("", tc.text) {
			got = append(got, tc.text[r[0]:r[1]])
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("split %q on %q: %q, want %q", tc.text, tc.sep, got, tc.want)
		}
	}
}

// TestInfoSplitter: a task with a labeler splits as the task does (arith
// leaves answer lines out); otherwise the separator, by default a blank line.
func TestInfoSplitter(t *testing.T) {
	text := "1 + 2 = 3\n3 * 4 = 12\nanswer: 12"
	for _, tc := range []struct {
		info Info
		want int
	}{
		{Info{Task: "arith"}, 2},
		{Info{Separator: "\n"}, 3},
		{Info{}, 1},
	} {
		s, err := tc.info.Splitter()
		if err != nil {
			t.Fatal(err)
		}
		if got := len(s("", text)); got != tc.want {
			t.Errorf("%+v: %d steps, want %d", tc.info, got, tc.want)
		}
	}
	if _, err := (Info{Task: "no-such-task"}).Splitter(); err == nil {
		t.Error("an unknown task was accepted")
	}
}
