package hf_test

import (
	"fmt"
	"os"
	"slices"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/model/hf"
)

// Save writes a Hugging Face style folder (config.json and
// model.safetensors) that Load reads back, weights bit for bit.
func ExampleSave() {
	dir, _ := os.MkdirTemp("", "model-example")
	defer os.RemoveAll(dir)
	m, _ := model.New(model.Tiny(40), 1)
	if err := hf.Save(m, dir); err != nil {
		panic(err)
	}
	back, err := hf.Load(dir)
	if err != nil {
		panic(err)
	}
	same, got := true, back.ParamData()
	for i, w := range m.ParamData() {
		same = same && slices.Equal(w, got[i])
	}
	fmt.Println(back.Config.NumHiddenLayers, back.Config.NumParams() == m.Config.NumParams(), same)
	// Output: 2 true true
}
