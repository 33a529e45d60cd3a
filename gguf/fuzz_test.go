package gguf_test

import (
	"bytes"
	"testing"

	"github.com/credo-rl/credo/gguf"
	"github.com/credo-rl/credo/gguf/gguftest"
)

// FuzzParse: any bytes parse to a file or an error, never a panic, and
// every tensor of a parsed file reads or errs; allocation stays bounded by
// the input (counts and lengths are checked against the bytes left).
func FuzzParse(f *testing.F) {
	// Small seeds: the fuzzer minimizes every new input it keeps, which
	// takes minutes on a file of tens of kilobytes.
	var w gguftest.Writer
	w.Alignment = 16
	w.Add("general.architecture", "llama")
	w.Add("tokenizer.ggml.tokens", []string{"a", "bc"})
	w.Add("tokenizer.ggml.token_type", []int32{1, 3})
	w.Add("llama.rope.freq_base", float32(1e4))
	x := make([]float32, 32)
	for i := range x {
		x[i] = float32(i) - 10
	}
	for _, typ := range []gguf.Type{gguf.Q8_0, gguf.Q4_0, gguf.Q4_1, gguf.F16, gguf.BF16} {
		w.AddTensor(typ.String(), typ, []int64{32}, gguftest.Quantize(typ, x))
	}
	f.Add(w.Bytes())
	f.Add([]byte("GGUF\x03\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := gguf.Parse(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		for _, ti := range file.Tensors {
			if v, err := file.Float32(ti); err == nil && int64(len(v)) != ti.Elements() {
				t.Fatalf("%s: %d values for %d elements", ti.Name, len(v), ti.Elements())
			}
		}
		for _, k := range file.Keys {
			file.Strings(k)
			file.Ints(k)
		}
	})
}
