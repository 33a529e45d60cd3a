package records

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/credo-rl/credo/internal/boundedread"

	"github.com/credo-rl/credo/task"
)

// Source names a file of records as a run's prompts: the settings that
// --records, --format, --test-fraction and --strict-records set. The zero
// Source names none (the run's task is a registered generator).
type Source struct {
	// Records is the records file (JSON Lines; for sql also a folder
	// holding records.jsonl and its databases).
	Records string `json:"records,omitempty" yaml:"records,omitempty"`
	// Format is the records' format: ifeval, gsm8k, bfcl or sql.
	Format string `json:"format,omitempty" yaml:"format,omitempty"`
	// TestFraction is the share of records held out (0: DefaultTestFraction).
	TestFraction float64 `json:"test_fraction,omitempty" yaml:"test_fraction,omitempty"`
	// StrictRecords refuses a file with a malformed record instead of
	// skipping the record.
	StrictRecords bool `json:"strict_records,omitempty" yaml:"strict_records,omitempty"`
	// SHA256 is the records file's digest when the run was set up (Pin):
	// Build refuses a file that no longer has it, since a resumed run must
	// see the prompts it started with. Empty: not checked.
	SHA256 string `json:"records_sha256,omitempty" yaml:"records_sha256,omitempty"`
}

// Pin is s with SHA256 set to its records file's digest, unless already
// set or s names no file.
func Pin(s Source) (Source, error) {
	if s.Records == "" || s.SHA256 != "" {
		return s, nil
	}
	d, err := digest(s)
	s.SHA256 = d
	return s, err
}

// digest is the hex SHA-256 of the records file s names (a sql folder's
// records.jsonl).
func digest(s Source) (string, error) {
	path := s.Records
	if st, err := os.Stat(path); err == nil && st.IsDir() && s.Format == "sql" {
		path = filepath.Join(path, FolderFile)
	}
	data, err := boundedread.ReadFile(path, boundedread.Record)
	if err != nil {
		return "", fmt.Errorf("records: %w", err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// TaskName is the name of the task a file of records in format makes.
func TaskName(format string) string { return "records-" + format }

// Build is the task a configuration names: the records of s when it names
// a file (seeded by seed; a difficulty is an error, records have none),
// else the registered task name (task.Build). A records task's size and
// the malformed records it skipped (the first maxReported, by line) are
// written to log (nil: nowhere).
func Build(ctx context.Context, name string, seed uint64, difficulty string, s Source, log io.Writer) (task.Task, error) {
	if s.Records == "" {
		if s.Format != "" || s.TestFraction != 0 || s.StrictRecords {
			return nil, errors.New("format, test fraction and strict records go with a records file (--records FILE)")
		}
		return task.Build(name, seed, difficulty)
	}
	if difficulty != "" {
		return nil, errors.New("a records file has no difficulty settings: leave --difficulty out")
	}
	if s.Format == "" {
		return nil, errors.New("a records file needs its format (--format ifeval, gsm8k, bfcl or sql)")
	}
	if s.SHA256 != "" {
		d, err := digest(s)
		if err != nil {
			return nil, err
		}
		if d != s.SHA256 {
			return nil, fmt.Errorf("records %s changed since the run was set up (sha256 %.12s…, now %.12s…): restore the file, or start a new run", s.Records, s.SHA256, d)
		}
	}
	t, err := Open(ctx, s.Records, Options{Format: s.Format, TestFraction: s.TestFraction, Strict: s.StrictRecords, Seed: seed})
	if err != nil {
		return nil, err
	}
	if log != nil {
		Report(log, t)
	}
	return t, nil
}

// maxReported bounds the malformed records Report lists one by one.
const maxReported = 10

// Report writes a records task's size and the records it skipped.
func Report(w io.Writer, t *Task) {
	fmt.Fprintf(w, "records %s: %d %s prompts, %d train and %d test", t.path, t.Len(task.Train)+t.Len(task.Test), t.format, t.Len(task.Train), t.Len(task.Test))
	if n := len(t.skipped); n > 0 {
		fmt.Fprintf(w, "; %d malformed records skipped (--strict-records refuses the file instead)", n)
	}
	fmt.Fprintln(w)
	for i, p := range t.skipped {
		if i == maxReported {
			fmt.Fprintf(w, "  … and %d more\n", len(t.skipped)-maxReported)
			break
		}
		fmt.Fprintf(w, "  skipped %v\n", p)
	}
}
