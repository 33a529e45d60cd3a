package run

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/credo-rl/credo/internal/atomicfile"
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
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}

// Log is a JSON Lines file kept whole in memory and rewritten atomically
// on every Append: logs here are at most a few megabytes, and a torn last
// line would make a killed run's log unreadable.
type Log struct {
	path  string
	lines [][]byte
}

// OpenLog opens path, keeping the lines for which keep returns true (a
// resumed run drops lines past its checkpoint). A missing file is empty.
// keep may be nil to keep every line.
func OpenLog(path string, keep func(line []byte) bool) (*Log, error) {
	l := &Log{path: path}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return l, nil
	}
	if err != nil {
		return nil, fmt.Errorf("open log: %w", err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	for sc.Scan() {
		line := append([]byte(nil), sc.Bytes()...)
		if len(bytes.TrimSpace(line)) == 0 || (keep != nil && !keep(line)) {
			continue
		}
		l.lines = append(l.lines, line)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("open log %s: %w", path, err)
	}
	return l, nil
}

// Append adds records, one JSON line each, and rewrites the file.
func (l *Log) Append(records ...any) error {
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
func (l *Log) Save() error { return l.flush() }

func (l *Log) flush() error {
	var buf bytes.Buffer
	for _, line := range l.lines {
		buf.Write(line)
		buf.WriteByte('\n')
	}
	return WriteFile(l.path, buf.Bytes())
}

// Len is the number of lines.
func (l *Log) Len() int { return len(l.lines) }

// ReadLines decodes every line of a JSON Lines file with decode.
func ReadLines(path string, decode func(line []byte) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 64<<20)
	n := 0
	for sc.Scan() {
		n++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		if err := decode(sc.Bytes()); err != nil {
			return fmt.Errorf("read %s line %d: %w", path, n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	return nil
}
