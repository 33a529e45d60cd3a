package ifeval

import (
	"bufio"
	"encoding/json"
	"os"
	"testing"
)

// TestPythonGolden compares the checkers with verdicts Python computed by
// IFEval's own logic and regular expressions (testdata/python_golden.py)
// on responses built from tricky fragments: Unicode spaces and digits,
// case-folding oddities (ſ, the Kelvin sign, İ), markers, brackets.
func TestPythonGolden(t *testing.T) {
	f, err := os.Open("testdata/python_golden.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		var g struct {
			ID       string          `json:"id"`
			Kwargs   json.RawMessage `json:"kwargs"`
			Response string          `json:"response"`
			OK       bool            `json:"ok"`
		}
		if err := json.Unmarshal(sc.Bytes(), &g); err != nil {
			t.Fatal(err)
		}
		c, err := ParseJSON(g.ID, g.Kwargs)
		if err != nil {
			t.Fatalf("%s %s: %v", g.ID, g.Kwargs, err)
		}
		if r := c.Check(g.Response); r.OK != g.OK {
			t.Errorf("%s %s: Check(%q) = %v (%s), Python says %v", g.ID, g.Kwargs, g.Response, r.OK, r.Reason, g.OK)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n < 1000 {
		t.Fatalf("only %d golden cases", n)
	}
}
