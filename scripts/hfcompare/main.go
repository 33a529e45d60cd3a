// Command hfcompare runs a checkpoint folder through credo for
// scripts/python/smollm2_check.py, which runs the same folder through
// transformers and tokenizers and compares:
//
//	go run ./scripts/hfcompare -model DIR -in request.json -out DIR2
//
// The request names token sequences, texts and chat prompts:
//
//	{"seqs": [[1, 2, …], …], "texts": ["…", …], "prompts": ["…", …],
//	 "task_prompts": {"ifeval": 2, "toolcall": 2}, "max_tokens": 48}
//
// For sequence i it writes DIR2/logits-i.f32, the next-token logits at
// every position computed one token at a time through the KV cache
// (Prefill, then Decode), and DIR2/probs-i.f32, the next-token
// probabilities from one whole-sequence pass (Distributions), both
// little-endian float32 [len−1 or len, vocab]. DIR2/result.json holds each
// text's ids (Encode), and for each prompt (those given, then the first
// task_prompts test prompts of each task) its text, its ids as rendered
// by the chat template (EncodePrompt) and its greedy continuation.
package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/sample"
	"github.com/credo-rl/credo/task"

	_ "github.com/credo-rl/credo/task/ifeval"
	_ "github.com/credo-rl/credo/task/toolcall"
)

type request struct {
	Seqs        [][]int32      `json:"seqs"`
	Texts       []string       `json:"texts"`
	Prompts     []string       `json:"prompts"`
	TaskPrompts map[string]int `json:"task_prompts"`
	MaxTokens   int            `json:"max_tokens"`
}

type generation struct {
	Task   string  `json:"task,omitempty"`
	Prompt string  `json:"prompt"`
	IDs    []int32 `json:"prompt_ids"`
	Greedy []int32 `json:"greedy"`
	Text   string  `json:"greedy_text"`
}

type result struct {
	Encodings   [][]int32    `json:"encodings"`
	Generations []generation `json:"generations"`
}

func main() {
	dir := flag.String("model", "", "checkpoint folder")
	in := flag.String("in", "", "request JSON")
	out := flag.String("out", "", "folder for the results")
	flag.Parse()
	if err := run(context.Background(), *dir, *in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "hfcompare:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, dir, in, out string) error {
	var req request
	data, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, &req); err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	p, err := policy.Load(dir)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for i, s := range req.Seqs {
		if err := logits(ctx, p.Model, s, filepath.Join(out, fmt.Sprintf("logits-%d.f32", i))); err != nil {
			return err
		}
		probs, err := p.Model.Distributions(ctx, [][]int32{s}, []int{1})
		if err != nil {
			return err
		}
		if err := writeF32(filepath.Join(out, fmt.Sprintf("probs-%d.f32", i)), probs[0]); err != nil {
			return err
		}
	}
	var res result
	for _, t := range req.Texts {
		ids, _ := p.Tok.Encode(t)
		res.Encodings = append(res.Encodings, append([]int32{}, ids...))
	}
	for _, pr := range req.Prompts {
		res.Generations = append(res.Generations, generation{Prompt: pr})
	}
	for _, name := range slices.Sorted(maps.Keys(req.TaskPrompts)) {
		t, err := task.Build(name, 0, "")
		if err != nil {
			return err
		}
		for i := range req.TaskPrompts[name] {
			res.Generations = append(res.Generations, generation{Task: name, Prompt: t.Prompt(task.Test, i).Text})
		}
	}
	texts := make([]string, len(res.Generations))
	for i, g := range res.Generations {
		texts[i] = g.Prompt
	}
	c := sample.DefaultConfig()
	c.Temperature, c.MaxTokens = 0, req.MaxTokens
	gen, err := p.Generate(ctx, texts, 1, c)
	if err != nil {
		return err
	}
	for _, r := range gen {
		g := &res.Generations[r.Prompt]
		g.IDs = p.Tok.EncodePrompt(texts[r.Prompt])
		g.Greedy, g.Text = r.Tokens, r.Text
	}
	js, err := json.MarshalIndent(res, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(out, "result.json"), js, 0o644)
}

// logits writes the next-token logits at every position of s, one token
// at a time through the KV cache.
func logits(ctx context.Context, m *model.Model, s []int32, path string) error {
	cache, first, err := m.Prefill(ctx, [][]int32{s[:1]}, 1, len(s))
	if err != nil {
		return err
	}
	defer cache.Free()
	rows := [][]float32{first[0]}
	for _, tok := range s[1:] {
		next, err := m.Decode(ctx, cache, []int32{tok})
		if err != nil {
			return err
		}
		rows = append(rows, next[0])
	}
	return writeF32(path, rows)
}

func writeF32(path string, rows [][]float32) error {
	var buf []byte
	for _, r := range rows {
		for _, v := range r {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
		}
	}
	return os.WriteFile(path, buf, 0o644)
}
