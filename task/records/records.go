package records

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/credo-rl/credo/internal/boundedread"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

// DefaultTestFraction is the share of records held out for evaluation
// when Options.TestFraction is 0.
const DefaultTestFraction = 0.2

// FolderFile is the records file read from a folder given as the path
// (an sql folder holding its databases and its records).
const FolderFile = "records.jsonl"

// Options configure Open.
type Options struct {
	Format string // "ifeval", "gsm8k", "bfcl" or "sql" (Formats)
	// TestFraction is the share of records in the test split, in (0, 1);
	// 0 means DefaultTestFraction.
	TestFraction float64
	// Strict refuses the whole file at its first malformed record; by
	// default malformed records are skipped and listed by Skipped.
	Strict bool
	// DBDir is the folder of SQLite databases that sql records name by
	// db_id; empty means the records file's own folder.
	DBDir string
	// Seed orders the training prompts (Prompt(task.Train, i)).
	Seed uint64
}

// Problem is a malformed record: its line (from 1) and what is wrong.
type Problem struct {
	Line int
	Err  error
}

func (p Problem) Error() string { return fmt.Sprintf("line %d: %v", p.Line, p.Err) }

func (p Problem) Unwrap() error { return p.Err }

// item is one record made a prompt.
type item struct {
	p    task.Prompt
	ref  string // a reference response, "" when the record has none
	line int
}

// Task is a file of records as a task.Task, with task.Referencer and
// task.DemoLacker. Close releases its databases (sql).
type Task struct {
	format      string
	path        string
	train, test []item
	order       []int // the training prompts' order, drawn from Options.Seed
	rewards     []reward.Verifier
	refs        map[string]string // prompt ID → reference response
	raw         map[string][]byte // prompt ID → its record, compact JSON
	skipped     []Problem
	closer      io.Closer
}

var (
	_ task.Task       = (*Task)(nil)
	_ task.Referencer = (*Task)(nil)
	_ task.DemoLacker = (*Task)(nil)
	_ io.Closer       = (*Task)(nil)
)

// Open reads a records file (JSON Lines; for sql also a folder holding
// FolderFile and the databases) into a task. It fails on an unreadable
// file, an unknown format, a bad test fraction, a split left empty, or,
// with o.Strict, the first malformed record.
func Open(ctx context.Context, path string, o Options) (*Task, error) {
	if o.TestFraction == 0 {
		o.TestFraction = DefaultTestFraction
	}
	if !(o.TestFraction > 0 && o.TestFraction < 1) {
		return nil, fmt.Errorf("records: test fraction %v is not in (0, 1)", o.TestFraction)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() && o.Format == "sql" {
		if o.DBDir == "" {
			o.DBDir = path
		}
		path = filepath.Join(path, FolderFile)
	}
	if o.DBDir == "" {
		o.DBDir = filepath.Dir(path)
	}
	data, err := boundedread.ReadFile(path, boundedread.Record)
	if err != nil {
		return nil, fmt.Errorf("records: %w", err)
	}
	f, err := newFormat(o)
	if err != nil {
		return nil, err
	}
	t := &Task{format: o.Format, path: path, refs: map[string]string{}, raw: map[string][]byte{}, closer: f.closer}
	blocks := map[string]map[string]string{} // reward → prompt ID → block
	seen := map[string]int{}                 // prompt ID → line
	for n, line := range bytes.Split(data, []byte("\n")) {
		line = bytes.TrimSpace(bytes.TrimPrefix(line, []byte("\ufeff")))
		if len(line) == 0 {
			continue
		}
		it, bl, err := f.read(ctx, line, n+1)
		if err == nil && seen[it.p.ID] > 0 {
			err = fmt.Errorf("id %q is already the id of line %d's record", it.p.ID, seen[it.p.ID])
		}
		if err != nil {
			if ctx.Err() != nil {
				t.Close()
				return nil, fmt.Errorf("records %s: %w", path, ctx.Err())
			}
			t.skipped = append(t.skipped, Problem{Line: n + 1, Err: err})
			if o.Strict {
				t.Close()
				return nil, fmt.Errorf("records %s: %w (malformed records are skipped without the strict setting)", path, t.skipped[0])
			}
			continue
		}
		seen[it.p.ID] = n + 1
		for name, b := range bl {
			if blocks[name] == nil {
				blocks[name] = map[string]string{}
			}
			blocks[name][it.p.ID] = b
		}
		if it.ref != "" {
			t.refs[it.p.ID] = it.ref
		}
		var compact bytes.Buffer
		json.Compact(&compact, line) // the format's reader checked it is JSON
		t.raw[it.p.ID] = compact.Bytes()
		if TestSplit(line, o.TestFraction) {
			t.test = append(t.test, it)
		} else {
			t.train = append(t.train, it)
		}
	}
	if err := t.checkSplits(o); err != nil {
		t.Close()
		return nil, err
	}
	t.order = rand.New(rand.NewPCG(o.Seed, 0x7265636f726473)).Perm(len(t.train)) // "records"
	for _, v := range f.rewards() {
		if bl := blocks[v.Name()]; len(bl) > 0 {
			v = blockVerifier{v, bl}
		}
		t.rewards = append(t.rewards, v)
	}
	return t, nil
}

func (t *Task) checkSplits(o Options) error {
	n := len(t.train) + len(t.test)
	switch {
	case n == 0 && len(t.skipped) > 0:
		return fmt.Errorf("records %s: none of its %d records is usable (first: %v)", t.path, len(t.skipped), t.skipped[0])
	case n == 0:
		return fmt.Errorf("records %s: no records", t.path)
	case len(t.train) == 0 || len(t.test) == 0:
		return fmt.Errorf("records %s: test fraction %v leaves %d train and %d test prompts of %d records: both splits need one (change the fraction or add records)", t.path, o.TestFraction, len(t.train), len(t.test), n)
	}
	return nil
}

// TestSplit says whether a record line belongs to the test split: the
// FNV-1a 64-bit hash h of its compact JSON (whitespace outside strings
// removed) gives h / 2^64 < fraction. A line that is not JSON is hashed
// as it is.
func TestSplit(line []byte, fraction float64) bool {
	var b bytes.Buffer
	if json.Compact(&b, line) != nil {
		b.Reset()
		b.Write(line)
	}
	h := fnv.New64a()
	h.Write(b.Bytes())
	return float64(h.Sum64()>>11)/(1<<53) < fraction
}

// Name is "records-<format>".
func (t *Task) Name() string { return TaskName(t.format) }

// Format is the records' format.
func (t *Task) Format() string { return t.format }

// Len is the number of prompts of a split.
func (t *Task) Len(split task.Split) int {
	if split == task.Test {
		return len(t.test)
	}
	return len(t.train)
}

// All lists every record's prompt in file order, with its split.
func (t *Task) All() ([]task.Prompt, []task.Split) {
	ps := make([]task.Prompt, 0, len(t.train)+len(t.test))
	splits := make([]task.Split, 0, cap(ps))
	i, j := 0, 0
	for i < len(t.train) || j < len(t.test) {
		if j == len(t.test) || (i < len(t.train) && t.train[i].line < t.test[j].line) {
			ps, splits = append(ps, t.train[i].p), append(splits, task.Train)
			i++
		} else {
			ps, splits = append(ps, t.test[j].p), append(splits, task.Test)
			j++
		}
	}
	return ps, splits
}

// Skipped lists the malformed records that were left out, in line order.
func (t *Task) Skipped() []Problem { return t.skipped }

// Prompt returns prompt i of a split, cycling: the test split in file
// order, the training split in an order drawn from Options.Seed.
func (t *Task) Prompt(split task.Split, i int) task.Prompt {
	i = max(i, 0)
	if split == task.Test {
		return t.test[i%len(t.test)].p
	}
	return t.train[t.order[i%len(t.order)]].p
}

// Rewards lists the format's verifiers (see the package doc).
func (t *Task) Rewards() []reward.Verifier { return t.rewards }

// Reference is the record's reference response (task.Referencer); false
// for a record without one (IFEval) or a prompt of another task.
func (t *Task) Reference(p task.Prompt) (string, bool) {
	r, ok := t.refs[p.ID]
	return r, ok
}

// Record is the record prompt p was made from, as compact JSON (what a
// remote verifier receives as "record"); false for a prompt of another
// task.
func (t *Task) Record(p task.Prompt) (json.RawMessage, bool) {
	r, ok := t.raw[p.ID]
	return r, ok
}

// NoDemos says why Demos gives nothing (task.DemoLacker): no training
// record has a reference response.
func (t *Task) NoDemos() error {
	for _, it := range t.train {
		if it.ref != "" {
			return nil
		}
	}
	return fmt.Errorf("%s records carry no reference responses, so there is nothing to warm up on: warm up on another task (or format: gsm8k, bfcl and sql records have references), or start from a model that already follows instructions", t.format)
}

// Demos returns n demonstrations: training records with a reference
// response, drawn in shuffled rounds from seed. With probability
// c.BlockRate a demonstration's prompt also carries the record's
// information blocks. References are clean: c's flaw rates do not apply.
func (t *Task) Demos(n int, seed uint64, c task.DemoConfig) []task.Demo {
	var with []item
	for _, it := range t.train {
		if it.ref != "" {
			with = append(with, it)
		}
	}
	if len(with) == 0 || n <= 0 {
		return nil
	}
	r := rand.New(rand.NewPCG(seed, 0x64656d6f73)) // "demos"
	out := make([]task.Demo, 0, n)
	for len(out) < n {
		for _, k := range r.Perm(len(with)) {
			if len(out) == n {
				break
			}
			it := with[k]
			text := it.p.Text
			if r.Float64() < c.BlockRate {
				text = task.Compose(text, t.blocksOf(it.p))
			}
			out = append(out, task.Demo{Prompt: text, Response: it.ref})
		}
	}
	return out
}

// blocksOf lists the record blocks of a prompt, in reward order.
func (t *Task) blocksOf(p task.Prompt) []string {
	var out []string
	for _, v := range t.rewards {
		if bv, ok := v.(blockVerifier); ok {
			out = append(out, bv.blocks[p.ID])
		}
	}
	return out
}

// Close releases the task's databases (sql); it is safe to call twice.
func (t *Task) Close() error {
	if t.closer == nil {
		return nil
	}
	err := t.closer.Close()
	t.closer = nil
	return err
}

// blockVerifier is a verifier whose information block comes from the
// record where the record has one.
type blockVerifier struct {
	reward.Verifier
	blocks map[string]string // prompt ID → block
}

// Verify is the verifier's verdict with the record's block as its Info.
func (v blockVerifier) Verify(ctx context.Context, p reward.Prompt, resp string) (reward.Verdict, error) {
	d, err := v.Verifier.Verify(ctx, p, resp)
	if b := v.blocks[p.ID]; b != "" {
		d.Info = b
	}
	return d, err
}

// errNotObject is a record line that is JSON but not an object.
var errNotObject = errors.New("not a JSON object")

// objectLine checks that a line is one JSON object.
func objectLine(line []byte) error {
	if !json.Valid(line) {
		var v any
		return fmt.Errorf("not JSON: %w", json.Unmarshal(line, &v))
	}
	if line[0] != '{' {
		return errNotObject
	}
	return nil
}

// oneLine shortens a text for an error message.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}
