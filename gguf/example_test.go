package gguf_test

import (
	"bytes"
	"fmt"

	"github.com/credo-rl/credo/gguf"
	"github.com/credo-rl/credo/gguf/gguftest"
)

func ExampleParse() {
	var w gguftest.Writer
	w.Add("general.architecture", "llama")
	w.AddTensor("token_embd.weight", gguf.Q8_0, []int64{32, 2}, gguftest.Quantize(gguf.Q8_0, make([]float32, 64)))
	data := w.Bytes()

	f, err := gguf.Parse(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		fmt.Println(err)
		return
	}
	arch, _ := f.String("general.architecture")
	t := f.Tensors[0]
	x, _ := f.Float32(t)
	fmt.Println(arch, t.Name, t.Type, t.Shape(), len(x))
	// Output: llama token_embd.weight Q8_0 [2 32] 64
}
