package ckpt_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/credo-rl/credo/ckpt"
	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/tokenizer"
)

// A trainer writes its state after a step into the run's checkpoints/
// and reads the newest back on resume, checked against its checksums.
func ExampleWrite() {
	run, _ := os.MkdirTemp("", "ckpt-example")
	defer os.RemoveAll(run)
	tok, _ := tokenizer.NewBytes()
	m, _ := model.New(model.Tiny(tok.VocabSize()), 1)
	var mom, vel [][]float32
	for _, w := range m.ParamData() {
		mom, vel = append(mom, make([]float32, len(w))), append(vel, make([]float32, len(w)))
	}
	cfg, _ := ckpt.ConfigBytes(map[string]any{"seed": 1, "steps": 10})
	err := ckpt.Write(ckpt.Dir(run, 5), ckpt.Checkpoint{
		Policy: &policy.Policy{Model: m, Tok: tok}, Mom: mom, Vel: vel, Config: cfg,
		State: ckpt.State{Step: 5, Updates: 5, Seed: 1},
	})
	if err != nil {
		panic(err)
	}
	latest, _ := ckpt.Latest(run)
	ck, err := ckpt.Read(latest, ckpt.ReadOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println(filepath.Base(latest), ck.State.Step, ck.State.Updates, string(ck.Config) == string(cfg))
	// Output: step-000005 5 5 true
}
