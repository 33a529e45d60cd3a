package records

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/arith"
	"github.com/credo-rl/credo/task/ifeval"
	"github.com/credo-rl/credo/task/sql"
	"github.com/credo-rl/credo/task/toolcall"
)

// Formats lists the record formats, sorted.
func Formats() []string { return []string{"bfcl", "gsm8k", "ifeval", "sql"} }

// format reads one kind of record.
type format struct {
	// read makes a record line a prompt, its reference response, and its
	// information blocks by reward name.
	read    func(ctx context.Context, line []byte, n int) (item, map[string]string, error)
	rewards func() []reward.Verifier // called after every line is read
	closer  io.Closer
}

func newFormat(o Options) (format, error) {
	switch o.Format {
	case "ifeval":
		return ifevalFormat(), nil
	case "gsm8k":
		return readerFormat(arith.New, "gsm8k", gsm8kRead)
	case "bfcl":
		return readerFormat(toolcall.New, "bfcl", bfclRead)
	case "sql":
		return sqlFormat(o.DBDir)
	}
	return format{}, fmt.Errorf("records: unknown format %q (known: %s)", o.Format, strings.Join(Formats(), ", "))
}

// readerFormat is a format read by a task's record reader (task.RecordReader).
func readerFormat(build func(task.Config) (task.Task, error), name string,
	read func(rr task.RecordReader, line []byte, n int) (item, map[string]string, error)) (format, error) {
	tk, err := build(task.Config{})
	if err != nil {
		return format{}, fmt.Errorf("records %s: %w", name, err)
	}
	rr, ok := tk.(task.RecordReader)
	if !ok || rr.RecordFormat() != name {
		return format{}, fmt.Errorf("records %s: task %s reads no %s records", name, tk.Name(), name)
	}
	return format{
		read: func(_ context.Context, line []byte, n int) (item, map[string]string, error) {
			if err := objectLine(line); err != nil {
				return item{}, nil, err
			}
			return read(rr, line, n)
		},
		rewards: rr.RecordRewards,
	}, nil
}

// fromRecord is rr.FromRecord with the line's id when the record has none.
func fromRecord(rr task.RecordReader, line []byte, n int) (task.Prompt, error) {
	p, err := rr.FromRecord(line)
	if err == nil && p.ID == "" {
		p.ID = fmt.Sprintf("%s-line%d", rr.RecordFormat(), n)
	}
	return p, err
}

// ifevalFormat: one reward per instruction id present in the file, each
// with the prompt's sentences that state it as its block.
func ifevalFormat() format {
	rr := &ifeval.Task{}
	present := map[string]bool{}
	read := func(_ context.Context, line []byte, n int) (item, map[string]string, error) {
		if err := objectLine(line); err != nil {
			return item{}, nil, err
		}
		p, err := fromRecord(rr, line, n)
		if err != nil {
			return item{}, nil, err
		}
		var rec ifeval.Record
		if err := json.Unmarshal(line, &rec); err != nil { // FromRecord read it already
			return item{}, nil, err
		}
		blocks := map[string]string{}
		for i, id := range rec.InstructionIDs {
			present[id] = true
			if s := ifeval.Stated(rec.Prompt, id, rec.Kwargs[i]); len(s) > 0 {
				blocks[id] = strings.TrimSpace(blocks[id] + " " + strings.Join(s, " "))
			}
		}
		return item{p: p, line: n}, blocks, nil
	}
	rewards := func() []reward.Verifier {
		var out []reward.Verifier
		for _, v := range rr.RecordRewards() {
			if present[v.Name()] {
				out = append(out, v)
			}
		}
		return out
	}
	return format{read: read, rewards: rewards}
}

// calculator drops GSM8K's calculator annotations, <<48/2=24>>.
var calculator = regexp.MustCompile(`<<[^<>]*>>`)

// gsm8kRead: the reference is the worked answer without its calculator
// annotations, its "#### N" line written as the prompt asks ("answer: N").
func gsm8kRead(rr task.RecordReader, line []byte, n int) (item, map[string]string, error) {
	p, err := fromRecord(rr, line, n)
	if err != nil {
		return item{}, nil, err
	}
	var r struct {
		Answer string `json:"answer"`
	}
	json.Unmarshal(line, &r) // FromRecord read it already
	ref := calculator.ReplaceAllString(r.Answer, "")
	if i := strings.LastIndex(ref, "####"); i >= 0 {
		ref = strings.TrimRight(ref[:i], "\n ") + "\nanswer: " + strings.TrimSpace(ref[i+4:])
	}
	return item{p: p, ref: ref, line: n}, nil, nil
}

// bfclRead: the prompt states the format; the call reward's block is the
// called function's schema; the reference is the ground truth's first
// accepted call.
func bfclRead(rr task.RecordReader, line []byte, n int) (item, map[string]string, error) {
	p, err := fromRecord(rr, line, n)
	if err != nil {
		return item{}, nil, err
	}
	ref, ok := p.Ref.(*toolcall.Ref)
	if !ok || ref == nil {
		return item{}, nil, fmt.Errorf("bfcl record made a prompt with Ref %T", p.Ref)
	}
	blocks := map[string]string{}
	for _, f := range ref.Functions {
		if f.Name == ref.Answer.Function {
			blocks["call"] = "Function: " + f.Schema.String()
		}
	}
	p.Text += "\n\n" + toolcall.FormatBlock
	resp := "<think>I call " + ref.Answer.Function + ".</think><tool_call>" + ref.ReferenceCall() + "</tool_call>"
	return item{p: p, ref: resp, line: n}, blocks, nil
}

// sqlFormat: records over the databases of dir. The prompt shows the
// database's schema, the question and the format; the executes reward's
// block is the schema; the reference is the record's query.
func sqlFormat(dir string) (format, error) {
	folder, err := sql.OpenFolder(dir, sql.Options{})
	if err != nil {
		return format{}, fmt.Errorf("records sql: %w", err)
	}
	read := func(ctx context.Context, line []byte, n int) (item, map[string]string, error) {
		if err := objectLine(line); err != nil {
			return item{}, nil, err
		}
		p, err := fromRecord(folder, line, n)
		if err != nil {
			return item{}, nil, err
		}
		var r struct {
			DB    string `json:"db_id"`
			Query string `json:"query"`
		}
		json.Unmarshal(line, &r) // FromRecord read it already
		schema, err := folder.Schema(ctx, r.DB)
		if err != nil {
			return item{}, nil, err
		}
		if strings.TrimSpace(p.Text) == "" {
			return item{}, nil, fmt.Errorf("sql record of %q has no \"question\"", oneLine(r.Query))
		}
		p.Text = "Database schema:\n" + schema + "\nQuestion: " + p.Text + "\n\n" + sql.FormatInfo
		resp := "<think>I query the tables the question names.</think><answer>" + r.Query + "</answer>"
		return item{p: p, ref: resp, line: n}, map[string]string{"executes": "Schema:\n" + schema}, nil
	}
	return format{read: read, rewards: folder.RecordRewards, closer: folder}, nil
}
