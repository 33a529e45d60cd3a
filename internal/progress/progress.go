package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// Bar is one progress line. It is not safe for concurrent use.
type Bar struct {
	w       io.Writer
	label   string
	total   int
	start   time.Time
	last    time.Time
	tty     bool
	every   time.Duration // minimum time between lines when not a terminal
	now     func() time.Time
	drawn   bool
	startAt int // the first step counted (a resumed run starts past 0)
}

// New starts a bar counting to total steps, beginning at start.
func New(w io.Writer, label string, start, total int) *Bar {
	b := &Bar{w: w, label: label, total: total, startAt: start, now: time.Now, every: 5 * time.Second}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			b.tty = true
		}
	}
	b.start = b.now()
	return b
}

// Update reports that done steps are finished, with extra fields to show.
func (b *Bar) Update(done int, fields string) {
	now := b.now()
	if !b.tty && done < b.total && now.Sub(b.last) < b.every && b.drawn {
		return
	}
	b.last, b.drawn = now, true
	line := b.format(done, fields, now)
	if b.tty {
		fmt.Fprintf(b.w, "\r\033[K%s", line)
	} else {
		fmt.Fprintln(b.w, line)
	}
}

// Done ends the bar's line.
func (b *Bar) Done() {
	if b.tty && b.drawn {
		fmt.Fprintln(b.w)
	}
}

func (b *Bar) format(done int, fields string, now time.Time) string {
	const width = 20
	frac := 0.0
	if b.total > 0 {
		frac = min(1, float64(done)/float64(b.total))
	}
	filled := int(frac * width)
	bar := strings.Repeat("█", filled) + strings.Repeat("·", width-filled)
	s := fmt.Sprintf("%s %d/%d %s", b.label, done, b.total, bar)
	if fields != "" {
		s += " | " + fields
	}
	if n := done - b.startAt; n > 0 {
		per := now.Sub(b.start) / time.Duration(n)
		s += fmt.Sprintf(" | %.2fs/step", per.Seconds())
		if left := b.total - done; left > 0 {
			s += " | eta " + (per * time.Duration(left)).Round(time.Second).String()
		}
	}
	return s
}
