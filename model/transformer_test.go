package model

import (
	"slices"
	"strings"
	"testing"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
	"github.com/gomlx/gomlx/core/tensors"
)

// TestBindWeightsRejects: a missing, misshapen or extra weight is named
// when the graph is built, never bound to the wrong role.
func TestBindWeightsRejects(t *testing.T) {
	m, _ := New(Tiny(40), 1)
	build := func(specs []ParamSpec) error {
		_, err := NewExec(m.backend, func(inputs []*Node) *Node {
			return bindByName(m.Config, specs, inputs).embed
		})
		if err != nil {
			return err
		}
		var args []any
		for _, p := range specs {
			args = append(args, tensors.FromFlatDataAndDimensions(make([]float32, p.Size()), p.Shape...))
		}
		e, _ := NewExec(m.backend, func(inputs []*Node) *Node { return bindByName(m.Config, specs, inputs).embed })
		_, err = e.Call(args...)
		return err
	}
	specs := m.Config.Params()
	renamed := slices.Clone(specs)
	renamed[3].Name = "model.layers.0.self_attn.q_proj.bais"
	reshaped := slices.Clone(specs)
	reshaped[1].Shape = []int{16} // binds a [16] node where [32] is named
	extra := append(slices.Clone(specs), ParamSpec{Name: "model.layers.0.mlp.extra", Shape: []int{2}})
	for _, tc := range []struct {
		name  string
		specs []ParamSpec
		want  string
	}{
		{"misspelled", renamed, "no parameter model.layers.0.self_attn.q_proj.bias"},
		{"extra", extra, "model.layers.0.mlp.extra not used by the graph"},
	} {
		if err := build(tc.specs); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	// A node whose shape is not its spec's: bind the right specs to nodes
	// of reshaped's shapes.
	e, _ := NewExec(m.backend, func(inputs []*Node) *Node { return bindByName(m.Config, specs, inputs).embed })
	var args []any
	for _, p := range reshaped {
		args = append(args, tensors.FromFlatDataAndDimensions(make([]float32, p.Size()), p.Shape...))
	}
	if _, err := e.Call(args...); err == nil || !strings.Contains(err.Error(), "model.layers.0.input_layernorm.weight has shape [16], want [32]") {
		t.Errorf("misshapen: %v", err)
	}
}
