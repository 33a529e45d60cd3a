package ifeval

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/credo-rl/credo/internal/shareddata"
)

// TestRecordsParse parses every record of IFEval's input_data.jsonl into
// constraints, and checks the id counts of the data's README.
func TestRecordsParse(t *testing.T) {
	f, err := os.Open(shareddata.Path(t, "ifeval/input_data.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ReadRecords(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 541 {
		t.Fatalf("read %d records, want 541", len(recs))
	}
	counts := map[string]int{}
	total := 0
	for _, rec := range recs {
		p, cs, err := FromRecord(rec)
		if err != nil {
			t.Errorf("record %d: %v", rec.Key, err)
			continue
		}
		if len(cs) != len(rec.InstructionIDs) || p.Text != rec.Prompt {
			t.Errorf("record %d: %d constraints for %d ids", rec.Key, len(cs), len(rec.InstructionIDs))
		}
		for i, c := range cs {
			if c.ID() != rec.InstructionIDs[i] || c.Text() == "" {
				t.Errorf("record %d: constraint %d is %q with text %q", rec.Key, i, c.ID(), c.Text())
			}
			counts[c.ID()]++
			total++
		}
	}
	want := map[string]int{
		"change_case:capital_word_frequency": 25, "change_case:english_capital": 25,
		"change_case:english_lowercase": 39, "combination:repeat_prompt": 41,
		"combination:two_responses": 24, "detectable_content:number_placeholders": 27,
		"detectable_content:postscript": 26, "detectable_format:constrained_response": 10,
		"detectable_format:json_format": 17, "detectable_format:multiple_sections": 14,
		"detectable_format:number_bullet_lists": 31, "detectable_format:number_highlighted_sections": 48,
		"detectable_format:title": 37, "keywords:existence": 39, "keywords:forbidden_words": 49,
		"keywords:frequency": 42, "keywords:letter_frequency": 33, "language:response_language": 31,
		"length_constraints:nth_paragraph_first_word": 12, "length_constraints:number_paragraphs": 27,
		"length_constraints:number_sentences": 52, "length_constraints:number_words": 52,
		"punctuation:no_comma": 66, "startend:end_checker": 26, "startend:quotation": 41,
	}
	if total != 834 || len(counts) != 25 {
		t.Errorf("%d constraints of %d ids, want 834 of 25", total, len(counts))
	}
	for id, n := range want {
		if counts[id] != n {
			t.Errorf("%s: %d constraints, want %d", id, counts[id], n)
		}
	}
	if got := len(IDs()); got != 25 {
		t.Errorf("IDs() has %d ids, want 25", got)
	}
}

// TestRecordVerifiers judges a hand-written response to IFEval record 1001
// (no commas) through the verifier of its instruction id.
func TestRecordVerifiers(t *testing.T) {
	rec := Record{Key: 1001, Prompt: "Write an itinerary. You are not allowed to use any commas in your response.",
		InstructionIDs: []string{"punctuation:no_comma", "length_constraints:number_words"},
		Kwargs:         []map[string]any{{}, {"relation": "at least", "num_words": float64(5)}}}
	p, _, err := FromRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, tt := range []struct {
		id, response string
		score        float64
	}{
		{"punctuation:no_comma", "Day one we see Kyoto and day two Nara.", 1},
		{"punctuation:no_comma", "Day one, Kyoto.", 0},
		{"length_constraints:number_words", "Too short.", 0},
		{"detectable_format:title", "Anything.", 0}, // not in the record: skipped
	} {
		d, err := NewVerifier(tt.id).Verify(ctx, p, tt.response)
		if err != nil {
			t.Fatal(err)
		}
		if d.Score != tt.score || (tt.id == "detectable_format:title") != d.Skip {
			t.Errorf("%s on %q: %+v, want score %v", tt.id, tt.response, d, tt.score)
		}
		if !d.Skip && !strings.Contains(d.Info, " ") {
			t.Errorf("%s: Info %q is not the constraint's text", tt.id, d.Info)
		}
	}
	if _, _, err := FromRecord(Record{Key: 1, InstructionIDs: []string{"x:y"}, Kwargs: []map[string]any{{}}}); err == nil {
		t.Error("FromRecord accepted an unknown id")
	}
	if _, _, err := FromRecord(Record{Key: 1, InstructionIDs: []string{"punctuation:no_comma"}}); err == nil {
		t.Error("FromRecord accepted ids without kwargs")
	}
}

func TestReadRecordsError(t *testing.T) {
	_, err := ReadRecords(strings.NewReader("{\"key\": 1}\n{broken\n"))
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Errorf("ReadRecords error = %v, want one naming line 2", err)
	}
}
