package ckpt

import (
	"fmt"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/model/hf"
)

// OptimizerFile is the name of a checkpoint's optimizer state.
const OptimizerFile = "optimizer.safetensors"

// WriteOptimizerState writes AdamW moments (Updater.OptimizerState) to path as
// safetensors, "m.<param>" and "v.<param>" for each parameter of specs in
// float32: with the weights and the update count, all a resume needs to
// continue bit for bit.
func WriteOptimizerState(path string, specs []model.ParamSpec, mom, vel [][]float32) error {
	ts := map[string]hf.Tensor{}
	for i, s := range specs {
		ts["m."+s.Name] = hf.Tensor{Shape: s.Shape, Data: mom[i]}
		ts["v."+s.Name] = hf.Tensor{Shape: s.Shape, Data: vel[i]}
	}
	return hf.WriteSafetensors(path, ts)
}

// ReadOptimizerState reads moments WriteOptimizerState wrote, in the model's Specs order; a
// parameter without both is an error naming it.
func ReadOptimizerState(path string, specs []model.ParamSpec) (mom, vel [][]float32, err error) {
	ts, err := hf.ReadSafetensors(path)
	if err != nil {
		return nil, nil, err
	}
	for _, s := range specs {
		a, ok1 := ts["m."+s.Name]
		b, ok2 := ts["v."+s.Name]
		if !ok1 || !ok2 {
			return nil, nil, fmt.Errorf("optimizer state for %s is missing", s.Name)
		}
		mom, vel = append(mom, a.Data), append(vel, b.Data)
	}
	return mom, vel, nil
}
