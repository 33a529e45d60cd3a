package tokenizer

import (
	"encoding/json"
	"strings"
)

// A ChatML chat template may write a fixed system turn when the
// conversation has none (SmolLM2: "You are a helpful AI assistant named
// SmolLM…", Qwen2.5: "You are Qwen…"); transformers' apply_chat_template
// then renders it before the user's turn, and so does RenderPrompt.
const (
	systemOpen  = "<|im_start|>system\n"
	systemClose = "<|im_end|>\n"
)

// defaultSystem returns the complete system turn that template (the
// chat_template of tokenizer_config.json: a string, or a list of named
// templates of which "default" is used) writes as one string literal, or ""
// when it writes none.
func defaultSystem(raw json.RawMessage) string {
	var template string
	if json.Unmarshal(raw, &template) != nil {
		var named []struct{ Name, Template string }
		if json.Unmarshal(raw, &named) != nil {
			return ""
		}
		for _, n := range named {
			if n.Name == "default" {
				template = n.Template
			}
		}
	}
	for rest := template; ; {
		i := strings.IndexAny(rest, `'"`)
		if i < 0 {
			return ""
		}
		lit, n := jinjaString(rest[i:])
		if strings.HasPrefix(lit, systemOpen) && strings.HasSuffix(lit, systemClose) && len(lit) > len(systemOpen)+len(systemClose) {
			return lit
		}
		rest = rest[i+n:]
	}
}

// jinjaString decodes the quoted string literal at the start of s (its
// escapes \n, \t, \\ and the quotes) and says how many bytes it took; an
// unterminated literal takes the rest of s.
func jinjaString(s string) (string, int) {
	q := s[0]
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == q:
			return b.String(), i + 1
		case c == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(s[i])
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), len(s)
}
