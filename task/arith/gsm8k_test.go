package arith

import (
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/credo-rl/credo/internal/shareddata"
)

func TestGSM8KAnswer(t *testing.T) {
	tests := []struct {
		in, want string
		err      bool
	}{
		{"so 9 * 2 = 18.\n#### 18", "18", false},
		{"#### 1,000", "1000", false},
		{"#### 1,450,000\n", "1450000", false},
		{"#### -5", "-5", false},
		{"#### 2.50", "2.5", false},
		{"#### $30 per day", "30", false},
		{"#### 1\n#### 2", "2", false},
		{"no marker 18", "", true},
		{"18", "18", false}, // verl's preprocessed ground_truth: the bare number
		{" 1,000\n", "1000", false},
		{"-2.50", "-2.5", false},
		{"", "", true},
		{"#### abc", "", true},
		{"####", "", true},
		{"#### \xff", "", true},
	}
	for _, tt := range tests {
		got, err := GSM8KAnswer(tt.in)
		if (err != nil) != tt.err || got != tt.want {
			t.Errorf("GSM8KAnswer(%q) = %q, %v; want %q (error %v)", tt.in, got, err, tt.want, tt.err)
		}
	}
}

// Every one of GSM8K's 1,319 test records yields a number, its prompt's
// answer reward gives the record's own solution 1 and a wrong answer 0,
// and the format reward skips it.
func TestGSM8KFile(t *testing.T) {
	f, err := os.Open(shareddata.Path(t, "gsm8k/test.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := ReadGSM8K(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1319 {
		t.Fatalf("%d records, want 1319", len(recs))
	}
	known := map[int]string{0: "18", 1: "3", 2: "70000", 3: "540", 146: "2125", 611: "1450000"}
	for i, rec := range recs {
		ans, err := GSM8KAnswer(rec.Answer)
		if err != nil {
			t.Fatalf("record %d: %v", i, err)
		}
		if _, err := strconv.ParseFloat(ans, 64); err != nil {
			t.Fatalf("record %d: %q is not a number: %v", i, ans, err)
		}
		if want, ok := known[i]; ok && ans != want {
			t.Errorf("record %d: answer %s, want %s", i, ans, want)
		}
		p, err := rec.Prompt("gsm8k-" + strconv.Itoa(i))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(p.Text, rec.Question) {
			t.Fatalf("record %d: prompt %q", i, p.Text)
		}
		if v, err := (AnswerVerifier{}).Verify(context.Background(), p, rec.Answer); err != nil || v.Score != 1 {
			t.Fatalf("record %d: own solution scored %+v, %v", i, v, err)
		}
		if v, _ := (AnswerVerifier{}).Verify(context.Background(), p, "answer: "+ans); v.Score != 1 {
			t.Fatalf("record %d: answer line scored %+v", i, v)
		}
		if v, _ := (AnswerVerifier{}).Verify(context.Background(), p, "answer: "+ans+"1"); v.Score != 0 {
			t.Fatalf("record %d: wrong answer scored %+v", i, v)
		}
		if v, _ := (FormatVerifier{}).Verify(context.Background(), p, rec.Answer); !v.Skip {
			t.Fatalf("record %d: format verdict %+v, want Skip", i, v)
		}
		Steps(p, rec.Answer) // free text must not trip the labeler
	}
	// The first record's numbers are the question's digits, 16 and 2: its
	// "three" and "four" are words, so a step using 3 is not justified.
	p, _ := recs[0].Prompt("gsm8k-0")
	if got := Steps(p, "16 * 2 = 32\n16 - 3 = 13\nanswer: 18"); len(got) != 2 || !got[0].Correct || got[1].Correct {
		t.Errorf("first record steps %+v", got)
	}
}

func TestReadGSM8KErrors(t *testing.T) {
	_, err := ReadGSM8K(strings.NewReader(`{"question":"q","answer":"#### 1"}` + "\n{bad"))
	if err == nil || !strings.Contains(err.Error(), "record 2") {
		t.Errorf("error %v, want one naming record 2", err)
	}
	if _, err := (GSM8KRecord{Question: "q", Answer: "none"}).Prompt("x"); err == nil {
		t.Error("a record without #### gave a prompt")
	}
}
