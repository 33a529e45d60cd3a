package tokenizer

import (
	"encoding/json"
	"testing"
)

func TestDefaultSystem(t *testing.T) {
	smol := "{% for message in messages %}{% if loop.first and messages[0]['role'] != 'system' %}{{ '<|im_start|>system\nYou are SmolLM<|im_end|>\n' }}{% endif %}{{'<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n'}}{% endfor %}"
	// Qwen2.5 spells the newlines as escapes inside the literal, and opens
	// a system turn with a partial literal in its tools branch first.
	qwen25 := `{%- if tools %}{{- '<|im_start|>system\n' }}{%- else %}{%- if messages[0]['role'] == 'system' %}{{- '<|im_start|>system\n' + messages[0]['content'] + '<|im_end|>\n' }}{%- else %}{{- "<|im_start|>system\nYou are Qwen, \"created\".<|im_end|>\n" }}{%- endif %}{%- endif %}`
	qwen3 := `{%- if messages[0].role == 'system' %}{{- '<|im_start|>system\n' + messages[0].content + '<|im_end|>\n' }}{%- endif %}`
	for _, tc := range []struct {
		name string
		raw  any
		want string
	}{
		{"SmolLM2", smol, "<|im_start|>system\nYou are SmolLM<|im_end|>\n"},
		{"Qwen2.5", qwen25, "<|im_start|>system\nYou are Qwen, \"created\".<|im_end|>\n"},
		{"Qwen3: none", qwen3, ""},
		{"named templates", []map[string]string{{"name": "tool_use", "template": "x"}, {"name": "default", "template": smol}}, "<|im_start|>system\nYou are SmolLM<|im_end|>\n"},
		{"unterminated", "{{ '<|im_start|>system\nhi", ""},
		{"absent", nil, ""},
	} {
		raw, _ := json.Marshal(tc.raw)
		if got := defaultSystem(raw); got != tc.want {
			t.Errorf("%s: defaultSystem = %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestRenderPromptDefaultSystem: a ChatML tokenizer whose template has a
// default system turn renders it first, as apply_chat_template does.
func TestRenderPromptDefaultSystem(t *testing.T) {
	cfg, _ := json.Marshal(map[string]string{"chat_template": "{{ '<|im_start|>system\\nBe brief.<|im_end|>\\n' }}"})
	tok, err := ParseBPE(marshal(t, tinyJSON(t)), cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n"
	if got := tok.RenderPrompt("hi"); got != want {
		t.Errorf("RenderPrompt = %q, want %q", got, want)
	}
}
