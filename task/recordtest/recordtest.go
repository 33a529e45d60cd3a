// Package recordtest holds the checks that the tasks' record readers
// (task.RecordReader) share in their tests: fuzzing a reader with its
// verifiers, and comparing a record's verdicts with an existing parser's.
// It imports task and reward, and only tests import it.
package recordtest

import (
	"context"
	"reflect"
	"testing"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

// Fuzz fuzzes rr.FromRecord with the corpus already added to f: no input
// may panic, and every prompt it accepts must be judged by each of its
// RecordRewards without an error on response(prompt). ok may excuse a
// verifier's error (sql's result verifier fails when a fuzzed reference
// query does not run); nil excuses none.
func Fuzz(f *testing.F, rr task.RecordReader, response func(task.Prompt) string, ok func(v reward.Verifier, err error) bool) {
	vs := rr.RecordRewards()
	f.Fuzz(func(t *testing.T, record []byte) {
		p, err := rr.FromRecord(record)
		if err != nil {
			return
		}
		for _, v := range vs {
			if _, err := v.Verify(context.Background(), p, response(p)); err != nil && (ok == nil || !ok(v, err)) {
				t.Fatalf("%s on %q: %v", v.Name(), record, err)
			}
		}
	})
}

// SameVerdicts checks that every verifier judges resp alike after prompt
// got (from a record) and want (from the existing parser), and returns
// the verdicts.
func SameVerdicts(t testing.TB, vs []reward.Verifier, got, want task.Prompt, resp string) []reward.Verdict {
	t.Helper()
	var out []reward.Verdict
	for _, v := range vs {
		a, errA := v.Verify(context.Background(), got, resp)
		b, errB := v.Verify(context.Background(), want, resp)
		if !reflect.DeepEqual(a, b) || (errA == nil) != (errB == nil) {
			t.Fatalf("%s %s on %q: %+v (%v), the parser's prompt gives %+v (%v)", got.ID, v.Name(), resp, a, errA, b, errB)
		}
		out = append(out, a)
	}
	return out
}

// Refuses checks that rr refuses each of the records with an error.
func Refuses(t testing.TB, rr task.RecordReader, records ...string) {
	t.Helper()
	for _, rec := range records {
		if p, err := rr.FromRecord([]byte(rec)); err == nil {
			t.Errorf("%s: no error (prompt %+v)", rec, p)
		}
	}
}
