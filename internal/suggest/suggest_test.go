package suggest

import (
	"fmt"
	"testing"
)

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"span", "span", 0},
		{"spam", "span", 1},
		{"stpes", "steps", 1}, // a swap costs 1
		{"ca", "abc", 3},
		{"kitten", "sitting", 3},
		{"toolcal", "toolcall", 1},
		{"grpo", "gdpo", 1},
		{"héllo", "hello", 1}, // runes, not bytes
	} {
		if got := Distance(tc.a, tc.b); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", tc.a, tc.b, got, tc.want)
		}
		if got := Distance(tc.b, tc.a); got != tc.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetric)", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestClosest(t *testing.T) {
	methods := []string{"gdpo", "grpo", "mrtpo", "p2t", "p2t-code", "p2t-step", "span"}
	flags := []string{"steps", "out", "resume", "init", "method", "task", "lr"}
	for _, tc := range []struct {
		name  string
		known []string
		want  string // "" when no guess
	}{
		{"spam", methods, "span"},
		{"mrtp", methods, "mrtpo"},
		{"MRTPO", methods, "mrtpo"}, // case ignored
		{"gxpo", methods, ""},       // gdpo and grpo tie: no guess
		{"p2t-cod", methods, "p2t-code"},
		{"quantum", methods, ""},  // nothing near
		{"span", methods, ""},     // an exact name is no mistake
		{"stpes", flags, "steps"}, // a swap of two letters
		{"reusme", flags, "resume"},
		{"x", flags, ""}, // one letter: within 1 of nothing
		{"", flags, ""},
		{"trian", []string{"train", "sample", "eval"}, "train"},
		{"toolcal", []string{"arith", "ifeval", "slots", "sql", "toolcall"}, "toolcall"},
		{"sq", []string{"arith", "ifeval", "slots", "sql", "toolcall"}, "sql"},
	} {
		got, ok := Closest(tc.name, tc.known)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Closest(%q) = %q, %v; want %q", tc.name, got, ok, tc.want)
		}
	}
}

func ExampleHint() {
	fmt.Printf("unknown task %q%s\n", "toolcal", Hint("toolcal", []string{"arith", "sql", "toolcall"}))
	fmt.Printf("unknown task %q%s\n", "chess", Hint("chess", []string{"arith", "sql", "toolcall"}))
	// Output:
	// unknown task "toolcal": did you mean "toolcall"?
	// unknown task "chess"
}
