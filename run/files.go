package run

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"

	"github.com/credo-rl/credo/internal/atomicfile"
	"github.com/credo-rl/credo/internal/boundedread"
)

// WriteFile writes data to path through a temporary file in the same
// folder and a rename, so readers see the old file or the new one, never a
// torn one.
func WriteFile(path string, data []byte) error { return atomicfile.Write(path, data) }

// WriteJSON writes v as indented JSON, atomically.
func WriteJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return WriteFile(path, append(data, '\n'))
}

// ReadJSON reads a JSON file into v.
func ReadJSON(path string, v any) error {
	data, err := boundedread.ReadFile(path, boundedread.Record)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// Log is a JSON Lines file of T records kept whole in memory and
// rewritten atomically on every Append: logs here are at most a few
// megabytes, and a torn last line would make a killed run's log unreadable.
type Log[T any] struct {
	path  string
	lines [][]byte // as read or written: a kept line is never re-encoded
}

// OpenLog reads the JSON Lines file at path for appending. Every non-blank
// line must decode as a T, and check sees each record with its 1-based
// line number: it keeps the record, drops it (a resumed run cuts its logs
// back to its checkpoint), or rejects the file with an error. A line that
// does not decode, or that check rejects, is an error naming the file and
// the line. OpenLog never changes the file; a missing file is an empty
// log. check may be nil to keep every record.
func OpenLog[T any](path string, check func(line int, rec T) (keep bool, err error)) (*Log[T], error) {
	l := &Log[T]{path: path}
	f, err := boundedread.OpenLimited(path, boundedread.Log)
	if errors.Is(err, os.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open log: %w", err)
	}
	defer f.Close()
	err = ScanLines(f, func(n int, line []byte) error {
		var rec T
		if err := json.Unmarshal(line, &rec); err != nil {
			return err
		}
		keep := true
		if check != nil {
			var err error
			if keep, err = check(n, rec); err != nil {
				return err
			}
		}
		if keep {
			l.lines = append(l.lines, append([]byte(nil), line...))
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s %w", path, err)
	}
	return l, nil
}

// OpenMetrics opens the metrics log of a run resumed after `steps`
// completed steps (its checkpoint). Steps count from 1 (the step a line
// reports is the number of steps completed, as checkpoint names say). The
// file must hold steps 1, 2, … in order, each once, at least up to steps;
// lines of later steps (logged after the checkpoint, and redone) are left
// out of the Log. A damaged line, a gap, a repeated step or a file that
// stops short of the checkpoint is an error naming the file and the line,
// and the file is left as it is: lost metrics cannot be rebuilt, so the
// user decides (restore the file, or start a new run).
func OpenMetrics(path string, steps int) (*Log[Metrics], error) {
	next, first := 1, map[int]int{} // the step the next line must have; the line of each step
	l, err := OpenLog(path, func(n int, m Metrics) (bool, error) {
		s := m.Step()
		switch {
		case s == next:
		case s < next:
			return false, fmt.Errorf("step %d again (line %d has it): the log is damaged", s, first[s])
		default:
			return false, fmt.Errorf("step %d %s: %s", s, after(next-1), missing(next, s-1))
		}
		first[s] = n
		next++
		return s <= steps, nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, leftAsIs)
	}
	if next <= steps {
		what := "ends after step " + strconv.Itoa(next-1)
		if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
			what = "does not exist"
		} else if next == 1 {
			what = "holds no step"
		}
		return nil, fmt.Errorf("%s %s, but the checkpoint is at step %d: %s (%s)",
			path, what, steps, missing(next, steps), leftAsIs)
	}
	return l, nil
}

// leftAsIs tells a user what to do about a damaged log.
const leftAsIs = "the file is left as it is: repair or restore it, or start a new run"

// after says where a step came in a metrics log.
func after(prev int) string {
	if prev < 1 {
		return "comes first"
	}
	return "follows step " + strconv.Itoa(prev)
}

// missing names the steps from a to b.
func missing(a, b int) string {
	if a == b {
		return fmt.Sprintf("step %d is missing", a)
	}
	return fmt.Sprintf("steps %d to %d are missing", a, b)
}

// OpenSamples opens the samples log of a run resumed after `steps`
// completed steps: every line must be a Sample, steps never decreasing
// (a step may have no samples); lines of steps > steps are left out. A
// damaged line is an error naming the file and the line.
func OpenSamples(path string, steps int) (*Log[Sample], error) {
	last := -1
	l, err := OpenLog(path, func(_ int, s Sample) (bool, error) {
		if s.Step < last || s.Step < 0 {
			return false, fmt.Errorf("step %d after step %d: the log is damaged", s.Step, last)
		}
		last = s.Step
		return s.Step <= steps, nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, leftAsIs)
	}
	return l, nil
}

// OpenEvals opens the evaluations log of a run resumed after `steps`
// completed steps: every line an EvalRecord, steps increasing; lines of
// steps > steps are left out. A missing file is an empty log (a run from
// before the file existed).
func OpenEvals(path string, steps int) (*Log[EvalRecord], error) {
	last := -1
	l, err := OpenLog(path, func(_ int, e EvalRecord) (bool, error) {
		if e.Step <= last || e.Step < 0 {
			return false, fmt.Errorf("evaluation at step %d after step %d: the log is damaged", e.Step, last)
		}
		last = e.Step
		return e.Step <= steps, nil
	})
	if err != nil {
		return nil, fmt.Errorf("%w (%s)", err, leftAsIs)
	}
	return l, nil
}

// Append adds records, one JSON line each, and rewrites the file.
func (l *Log[T]) Append(records ...T) error {
	for _, r := range records {
		line, err := json.Marshal(r)
		if err != nil {
			return fmt.Errorf("log %s: %w", l.path, err)
		}
		l.lines = append(l.lines, line)
	}
	return l.flush()
}

// Save rewrites the file with the lines kept so far.
func (l *Log[T]) Save() error { return l.flush() }

func (l *Log[T]) flush() error {
	var buf bytes.Buffer
	for _, line := range l.lines {
		buf.Write(line)
		buf.WriteByte('\n')
	}
	return WriteFile(l.path, buf.Bytes())
}

// Len is the number of lines.
func (l *Log[T]) Len() int { return len(l.lines) }

// ScanLines calls fn on each non-blank line of r with its 1-based number;
// an error is returned as "line N: …".
func ScanLines(r io.Reader, fn func(n int, line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	n := 0
	for sc.Scan() {
		n++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if err := fn(n, sc.Bytes()); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("after line %d: %w", n, err)
	}
	return nil
}

// ReadLines decodes every non-blank line of a JSON Lines file with decode.
func ReadLines(path string, decode func(line []byte) error) error {
	f, err := boundedread.OpenLimited(path, boundedread.Log)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	if err := ScanLines(f, func(_ int, line []byte) error { return decode(line) }); err != nil {
		return fmt.Errorf("read %s %w", path, err)
	}
	return nil
}
