package task

import "testing"

type stater string

func (s stater) ReplayBase() string { return string(s) }

func TestReplayBase(t *testing.T) {
	for _, c := range []struct {
		name string
		p    Prompt
		want string
	}{
		{"no Ref", Prompt{Text: "q"}, "q"},
		{"a Ref that states no block", Prompt{Text: "q", Ref: 3}, "q"},
		{"a BlockStater", Prompt{Text: "q\n\nblock", Ref: stater("q")}, "q"},
		{"a BlockStater that cannot tell", Prompt{Text: "q", Ref: stater("")}, "q"},
	} {
		if got := ReplayBase(c.p); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
