package progress

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestBarNonTerminal(t *testing.T) {
	var buf bytes.Buffer
	b := New(&buf, "train", 0, 10)
	clock := b.start
	b.now = func() time.Time { return clock }
	for i := 1; i <= 10; i++ {
		clock = clock.Add(time.Second)
		b.Update(i, "loss 1.0")
	}
	b.Done()
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	// One line at the first update, then every 5 s, and always the last.
	if len(lines) != 3 {
		t.Fatalf("got %d lines, want 3:\n%s", len(lines), buf.String())
	}
	last := lines[len(lines)-1]
	for _, want := range []string{"train 10/10", "loss 1.0", "1.00s/step"} {
		if !strings.Contains(last, want) {
			t.Errorf("last line %q lacks %q", last, want)
		}
	}
	if !strings.Contains(lines[0], "eta 9s") {
		t.Errorf("first line %q lacks the time left", lines[0])
	}
}
