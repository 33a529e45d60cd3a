package ifeval

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/internal/shareddata"
)

func TestStated(t *testing.T) {
	cases := []struct {
		prompt, id string
		kwargs     map[string]any
		want       []string
	}{
		{"Write a poem about the sea. Do not use any commas in your response.", "punctuation:no_comma", nil,
			[]string{"Do not use any commas in your response."}},
		{"Write a 300+ word summary of \"https://en.wikipedia.org/wiki/X\". Use no commas.", "length_constraints:number_words",
			map[string]any{"relation": "at least", "num_words": 300.0},
			[]string{`Write a 300+ word summary of "https://en.wikipedia.org/wiki/X".`}},
		{"Tell a story.\nEnd your response with \"Is there anything else I can help with?\"", "startend:end_checker",
			map[string]any{"end_phrase": "Is there anything else I can help with?"},
			[]string{`End your response with "Is there anything else I can help with?"`}},
		{"Write a zany TLDR! Make it zany, but do not include the keywords 'icefrog', 'blizzard' in the response.", "keywords:forbidden_words",
			map[string]any{"forbidden_words": []any{"icefrog", "blizzard"}},
			[]string{"Make it zany, but do not include the keywords 'icefrog', 'blizzard' in the response."}},
		{"Answer with exactly 3 paragraphs. Use the word humming at least once.", "keywords:frequency",
			map[string]any{"keyword": "humming", "frequency": 1.0, "relation": "at least"},
			[]string{"Use the word humming at least once."}},
		{"Write about cats. Your whole answer must be in Hindi, no other language is allowed.", "language:response_language",
			map[string]any{"language": "hi"},
			[]string{"Your whole answer must be in Hindi, no other language is allowed."}},
		{"Write about cats.", "punctuation:no_comma", nil, nil},
		{"Write about cats. No commas.", "no:such_id", nil, nil},
	}
	for _, c := range cases {
		if got := Stated(c.prompt, c.id, c.kwargs); !slices.Equal(got, c.want) {
			t.Errorf("Stated(%q, %s) = %q, want %q", c.prompt, c.id, got, c.want)
		}
	}
}

// statedFound is how many of the 541 IFEval prompts' 834 instructions
// Stated finds a sentence for (and how many prompts have all found):
// the one missed is key 374's repeat_prompt, which the prompt misspells
// ("Please repleat the entire first line above").
const statedFound, statedPromptsAll = 833, 540

// TestStatedOnIFEval counts the instructions of IFEval's 541 prompts
// whose stating sentences are found; -v lists the ones missed.
func TestStatedOnIFEval(t *testing.T) {
	f, err := os.Open(shareddata.Path(t, "ifeval/input_data.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ReadRecords(f)
	if err != nil {
		t.Fatal(err)
	}
	found, total, all := 0, 0, 0
	for _, r := range recs {
		ok := true
		for i, id := range r.InstructionIDs {
			total++
			if got := Stated(r.Prompt, id, r.Kwargs[i]); len(got) > 0 {
				found++
			} else {
				ok = false
				t.Logf("key %d %s %v: not found in %q", r.Key, id, r.Kwargs[i], strings.ReplaceAll(r.Prompt, "\n", " "))
			}
		}
		if ok {
			all++
		}
	}
	t.Logf("%d prompts, %d instructions: %d found, %d prompts with every instruction found", len(recs), total, found, all)
	if len(recs) != 541 || found != statedFound || all != statedPromptsAll {
		t.Errorf("%d prompts: %d instructions found, %d prompts whole; want 541, %d, %d", len(recs), found, all, statedFound, statedPromptsAll)
	}
}
