package records

import (
	"context"
	"errors"

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
}

// TaskName is the name of the task a file of records in format makes.
func TaskName(format string) string { return "records-" + format }

// Build is the task a configuration names: the records of s when it names
// a file (seeded by seed; a difficulty is an error, records have none),
// else the registered task name (task.Build).
func Build(ctx context.Context, name string, seed uint64, difficulty string, s Source) (task.Task, error) {
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
	return Open(ctx, s.Records, Options{Format: s.Format, TestFraction: s.TestFraction, Strict: s.StrictRecords, Seed: seed})
}
