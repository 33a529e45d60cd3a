package model

import (
	"fmt"
	"strings"
)

// Presets size models for this machine (2 CPU cores, no GPU). All are
// Llama-style: SwiGLU, RoPE, RMSNorm, untied embeddings unless said.

// Tiny is for unit tests and reference fixtures: big enough to have every
// part (two layers, grouped-query attention, q/k/v bias), small enough that
// a forward pass is instant.
func Tiny(vocab int) Config {
	return Config{
		ModelType: "qwen2", VocabSize: vocab, HiddenSize: 32, IntermediateSize: 64,
		NumHiddenLayers: 2, NumAttentionHeads: 4, NumKeyValueHeads: 2,
		MaxPositionEmbeddings: 512, RopeTheta: 10000, RMSNormEps: 1e-6,
		TieWordEmbeddings: false, HiddenAct: "silu",
	}
}

// Small has about 1M parameters with a byte-level vocabulary: it learns the
// built-in tasks' formats in minutes on 2 cores. Tied embeddings, because at
// this width a separate head would be a quarter of the model.
func Small(vocab int) Config {
	return Config{
		ModelType: "llama", VocabSize: vocab, HiddenSize: 128, IntermediateSize: 384,
		NumHiddenLayers: 4, NumAttentionHeads: 4, NumKeyValueHeads: 2,
		MaxPositionEmbeddings: 1024, RopeTheta: 10000, RMSNormEps: 1e-5,
		TieWordEmbeddings: true, HiddenAct: "silu",
	}
}

// Medium has about 10M parameters (hidden 384, 6 layers, FFN 1024): the
// largest model a training step of 16 × 256 tokens keeps within a few
// seconds here.
func Medium(vocab int) Config {
	return Config{
		ModelType: "llama", VocabSize: vocab, HiddenSize: 384, IntermediateSize: 1024,
		NumHiddenLayers: 6, NumAttentionHeads: 6, NumKeyValueHeads: 6,
		MaxPositionEmbeddings: 1024, RopeTheta: 10000, RMSNormEps: 1e-5,
		TieWordEmbeddings: true, HiddenAct: "silu",
	}
}

// QwenVocab is Qwen3's vocabulary size (vocab_size in its config.json):
// the tokenizer's 151,669 tokens padded to a multiple of 128.
const QwenVocab = 151936

// QwenSmall is Small's width and depth with Qwen3's architecture
// (per-head q/k RMSNorm, head_dim 32, no biases) and vocabulary, for a
// policy that reads and writes with the Qwen3 tokenizer and chat
// template, so its prompts are formatted as a Qwen3 checkpoint's are.
// About 20M parameters, 19.4M of them the tied embedding table; a
// training step's [T, V] tables make micro-batches (Memory) necessary.
func QwenSmall() Config {
	return Config{
		ModelType: "qwen3", VocabSize: QwenVocab, HiddenSize: 128, IntermediateSize: 384,
		NumHiddenLayers: 4, NumAttentionHeads: 4, NumKeyValueHeads: 2, HeadDim: 32,
		MaxPositionEmbeddings: 1024, RopeTheta: 1000000, RMSNormEps: 1e-6,
		TieWordEmbeddings: true, HiddenAct: "silu",
	}
}

// presets are the models Preset builds by name, in the order its errors
// list them.
var presets = []struct {
	name string
	make func(vocab int) (Config, error)
}{
	{"tiny", func(v int) (Config, error) { return Tiny(v), nil }},
	{"small", func(v int) (Config, error) { return Small(v), nil }},
	{"medium", func(v int) (Config, error) { return Medium(v), nil }},
	{"qwen-small", func(v int) (Config, error) {
		if v > QwenVocab {
			return Config{}, fmt.Errorf("size qwen-small has Qwen3's %d-token vocabulary; the tokenizer has %d tokens", QwenVocab, v)
		}
		return QwenSmall(), nil
	}},
}

// PresetNames are the names Preset knows: tiny, small, medium, qwen-small.
func PresetNames() []string {
	names := make([]string, len(presets))
	for i, p := range presets {
		names[i] = p.name
	}
	return names
}

// Preset is the named preset for a tokenizer of vocab tokens: tiny (Tiny),
// small (Small; also the empty name), medium (Medium) or qwen-small
// (QwenSmall, which keeps Qwen3's vocabulary, so vocab may not exceed
// QwenVocab). An unknown name's error lists the known ones.
func Preset(name string, vocab int) (Config, error) {
	if name == "" {
		name = "small"
	}
	for _, p := range presets {
		if p.name == name {
			return p.make(vocab)
		}
	}
	return Config{}, fmt.Errorf("unknown model size %q (known: %s)", name, strings.Join(PresetNames(), ", "))
}
