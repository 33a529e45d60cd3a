package model

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestPreset: each name gives its preset (the empty name small), qwen-small
// refuses a tokenizer larger than its vocabulary, and an unknown name's
// error lists the known ones, as rl's model sizes always said them.
func TestPreset(t *testing.T) {
	same := func(a, b Config) bool {
		ja, _ := json.Marshal(a)
		jb, _ := json.Marshal(b)
		return string(ja) == string(jb)
	}
	for _, tc := range []struct {
		name  string
		vocab int
		want  Config
		err   string
	}{
		{"tiny", 40, Tiny(40), ""},
		{"small", 268, Small(268), ""},
		{"", 268, Small(268), ""},
		{"medium", 300, Medium(300), ""},
		{"qwen-small", 151669, QwenSmall(), ""},
		{"qwen-small", QwenVocab + 1, Config{}, "size qwen-small has Qwen3's 151936-token vocabulary; the tokenizer has 151937 tokens"},
		{"huge", 40, Config{}, `unknown model size "huge" (known: tiny, small, medium, qwen-small)`},
	} {
		got, err := Preset(tc.name, tc.vocab)
		switch {
		case tc.err != "" && (err == nil || err.Error() != tc.err):
			t.Errorf("Preset(%q, %d) error %v, want %q", tc.name, tc.vocab, err, tc.err)
		case tc.err == "" && err != nil:
			t.Errorf("Preset(%q, %d): %v", tc.name, tc.vocab, err)
		case tc.err == "" && !same(got, tc.want):
			t.Errorf("Preset(%q, %d) = %+v, want %+v", tc.name, tc.vocab, got, tc.want)
		}
	}
	if got := PresetNames(); !slices.Equal(got, []string{"tiny", "small", "medium", "qwen-small"}) {
		t.Errorf("PresetNames() = %v", got)
	}
}
