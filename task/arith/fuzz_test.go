package arith

import (
	"context"
	"strings"
	"testing"
)

// Seeds shared by the fuzz targets; more live in testdata/fuzz.
var fuzzSeeds = []string{
	good17,
	"17+25=42\r\nanswer:42\r\n",
	"17 plus 25 equals 42\nanswer: 42\nDone.",
	"-9223372036854775808 * -1 = 0",
	"999999999999999999 * 999999999999999999 = 1",
	"answer: 1,000.50",
	"#### -3",
	"\xff\xfe\n= = =\n+ - *",
	"",
	"\n\n\n",
}

func FuzzParseStep(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		st, err := ParseStep(line)
		if err != nil {
			return
		}
		if line[st.Equals] != '=' || st.CStart < st.Equals || st.CEnd > len(line) || st.CStart >= st.CEnd {
			t.Fatalf("%q: positions %+v", line, st)
		}
		c, err := ParseStep("0 + 0 = " + line[st.CStart:st.CEnd])
		if err != nil || c.C != st.C {
			t.Fatalf("%q: c's range %q does not read back as %d", line, line[st.CStart:st.CEnd], st.C)
		}
		again, err := ParseStep(st.Eq.String())
		if err != nil || again.Eq != st.Eq {
			t.Fatalf("%q: String %q reads back as %+v, %v", line, st.Eq.String(), again.Eq, err)
		}
		st.Holds()
	})
}

func FuzzParseNumber(f *testing.F) {
	for _, s := range append(fuzzSeeds, "1,000", "-0.00", "$18.", ".5") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if c, ok := ParseNumber(s); ok {
			if again, ok := ParseNumber(c); !ok || again != c {
				t.Fatalf("%q: canonical %q reads back as %q, %v", s, c, again, ok)
			}
		}
		if a, err := GSM8KAnswer("#### " + s); err == nil {
			if _, ok := ParseNumber(a); !ok {
				t.Fatalf("%q: GSM8K answer %q is no number", s, a)
			}
		}
		promptNumbers(s)
	})
}

func FuzzSteps(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, resp string) {
		prev := 0
		for _, s := range Steps(example17, resp) {
			if s.Start < prev || s.End <= s.Start || s.End > len(resp) {
				t.Fatalf("%q: step range %d..%d after %d", resp, s.Start, s.End, prev)
			}
			text := resp[s.Start:s.End]
			if strings.Contains(text, Separator) || isSpace(text[0]) || isSpace(text[len(text)-1]) {
				t.Fatalf("%q: step %q holds a separator or surrounding space", resp, text)
			}
			if s.Correct {
				if st, err := ParseStep(text); err != nil || !st.Holds() {
					t.Fatalf("%q: step %q labelled correct", resp, text)
				}
			}
			prev = s.End
		}
	})
}

func FuzzVerifiers(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s)
	}
	vs := mk(0).Rewards()
	f.Fuzz(func(t *testing.T, resp string) {
		for _, v := range vs {
			vd, err := v.Verify(context.Background(), example17, resp)
			if err != nil {
				t.Fatalf("%s(%q): %v", v.Name(), resp, err)
			}
			checkVerdict(t, v.Name(), resp, vd)
		}
	})
}
