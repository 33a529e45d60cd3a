package rl_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/rl"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/tokenizer"

	_ "github.com/credo-rl/credo/task/toolcall" // registers the task
)

// A training run: New checks the configuration and prepares the run
// directory, Run trains, logging one metrics line per step and writing a
// checkpoint at the end; --resume is New with resume set.
func ExampleNew() {
	dir, _ := os.MkdirTemp("", "rl-example")
	defer os.RemoveAll(dir)
	tok, _ := tokenizer.NewBytes()
	mc := model.Tiny(tok.VocabSize())
	mc.MaxPositionEmbeddings = 1024 // room for toolcall's prompts
	m, err := model.New(mc, 1)
	if err != nil {
		panic(err)
	}
	if err := (&policy.Policy{Model: m, Tok: tok}).Save(filepath.Join(dir, "init")); err != nil {
		panic(err)
	}

	c := rl.DefaultConfig()
	c.Task, c.Method = "toolcall", "gdpo"
	c.Init, c.Out = filepath.Join(dir, "init"), filepath.Join(dir, "run")
	c.Steps, c.PromptsPerStep, c.Group, c.MaxTokens, c.EvalPrompts = 2, 2, 2, 16, 0
	ctx := context.Background()
	tr, err := rl.New(ctx, c, false, io.Discard)
	if err != nil {
		panic(err)
	}
	if err := tr.Run(ctx); err != nil {
		panic(err)
	}
	metrics, err := run.OpenMetrics(filepath.Join(c.Out, run.MetricsFile), tr.Step())
	ckpts, _ := os.ReadDir(filepath.Join(c.Out, "checkpoints"))
	fmt.Println(tr.Step(), tr.Done(), metrics.Len(), err, ckpts[0].Name())

	again, err := rl.New(ctx, c, true, io.Discard) // resume: nothing left to do
	fmt.Println(again.Step(), again.Done(), err)
	// Output:
	// 2 true 2 <nil> step-000002
	// 2 true <nil>
}
