package judge

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/credo-rl/credo/reward"
)

func TestLocate(t *testing.T) {
	cases := []struct {
		name     string
		response string
		quotes   []string
		want     [][2]int // byte ranges, sorted
		dropped  int
	}{
		{"exact", "the cat sat on the mat", []string{"sat on"}, [][2]int{{8, 14}}, 0},
		{"repeat takes the next occurrence", "the cat sat on the mat", []string{"the", "the"}, [][2]int{{0, 3}, {15, 18}}, 0},
		{"more repeats than occurrences", "a b a", []string{"a", "a", "a"}, [][2]int{{0, 1}, {4, 5}}, 0},
		{"whitespace runs", "x =  1 +\n\t2", []string{"= 1 + 2"}, [][2]int{{2, 11}}, 0},
		{"quote with extra whitespace", "one two three", []string{"  two \n three "}, [][2]int{{4, 13}}, 0},
		{"exact beats normalized", "a  b a b", []string{"a b"}, [][2]int{{5, 8}}, 0},
		{"normalized repeats", "a  b, a\nb", []string{"a b", "a b"}, [][2]int{{0, 4}, {6, 9}}, 0},
		{"unicode spaces", "prix\u00a0: 3\u3000€", []string{"prix : 3 €"}, [][2]int{{0, len("prix\u00a0: 3\u3000€")}}, 0},
		{"multi-byte", "日本語のテキスト", []string{"テキスト", "日本"}, [][2]int{{0, 6}, {12, 24}}, 0},
		{"not found", "abc", []string{"abd", "b c"}, nil, 2},
		{"blank quotes", "a b", []string{"", "  ", "\n"}, nil, 3},
		{"empty response", "", []string{"x"}, nil, 1},
		{"overlapping quotes", "abcdef", []string{"abcd", "cdef"}, [][2]int{{0, 4}, {2, 6}}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			spans, dropped := Locate(c.response, c.quotes)
			var got [][2]int
			for _, s := range spans {
				if s.Strength != 1 {
					t.Errorf("strength %v", s.Strength)
				}
				got = append(got, [2]int{s.Start, s.End})
			}
			if fmt.Sprint(got) != fmt.Sprint(c.want) || dropped != c.dropped {
				t.Errorf("Locate = %v, %d dropped; want %v, %d", got, dropped, c.want, c.dropped)
			}
		})
	}
}

// LocateEffects puts each quote's effect on its span; a range quoted twice
// keeps the first quote's; Locate's spans have none.
func TestLocateEffects(t *testing.T) {
	resp := "the cat sat on the mat"
	spans, dropped := LocateEffects(resp, []string{"mat", "cat", "sat on", "cat", "dog"},
		[]reward.Effect{reward.Lowered, reward.Raised, reward.Neutral, reward.Lowered})
	want := []reward.Span{{Start: 4, End: 7, Strength: 1, Effect: reward.Raised}, {Start: 8, End: 14, Strength: 1},
		{Start: 19, End: 22, Strength: 1, Effect: reward.Lowered}}
	if fmt.Sprint(spans) != fmt.Sprint(want) || dropped != 1 {
		t.Errorf("LocateEffects = %v, %d dropped; want %v, 1", spans, dropped, want)
	}
	if spans, _ := Locate(resp, []string{"mat"}); spans[0].Effect != reward.Neutral {
		t.Errorf("Locate gave effect %v", spans[0].Effect)
	}
}

func TestLocateBoundsQuotes(t *testing.T) {
	quotes := make([]string, maxQuotes+10)
	for i := range quotes {
		quotes[i] = "a"
	}
	spans, dropped := Locate(strings.Repeat("a", 1000), quotes)
	if len(spans) != maxQuotes || dropped != 10 {
		t.Errorf("%d spans, %d dropped", len(spans), dropped)
	}
}

func FuzzLocate(f *testing.F) {
	f.Add("the cat  sat\non the mat", "cat sat", "the")
	f.Add("日本語\u3000のテキスト", "日本語 の", "\xff")
	f.Add("a\xffb \xe2\x80\xa8 c", "b c", "")
	f.Add("   ", " ", "x")
	f.Fuzz(func(t *testing.T, response, q1, q2 string) {
		quotes := []string{q1, q2}
		spans, dropped := Locate(response, quotes)
		if dropped < 0 || dropped > len(quotes) || len(spans) > len(quotes)-dropped {
			t.Fatalf("%d spans, %d dropped of %d", len(spans), dropped, len(quotes))
		}
		for i, s := range spans {
			if s.Start < 0 || s.End > len(response) || s.Start >= s.End {
				t.Fatalf("span %v outside %d bytes", s, len(response))
			}
			if i > 0 && (spans[i-1].Start > s.Start || spans[i-1] == s) {
				t.Fatalf("spans not sorted and distinct: %v", spans)
			}
			// Every span is one of the quotes, up to whitespace.
			text := squash(response[s.Start:s.End])
			if text != squash(q1) && text != squash(q2) {
				t.Fatalf("span %q matches neither %q nor %q", response[s.Start:s.End], q1, q2)
			}
			if utf8.ValidString(response) && utf8.ValidString(q1) && utf8.ValidString(q2) && (!utf8.ValidString(response[:s.Start]) || !utf8.ValidString(response[s.End:])) {
				t.Fatalf("span %v cuts a character of %q", s, response)
			}
		}
		// A quote that occurs verbatim is always found.
		for _, q := range quotes {
			if strings.TrimSpace(q) != "" && strings.Contains(response, q) {
				if _, d := Locate(response, []string{q}); d != 0 {
					t.Fatalf("%q occurs in %q but was dropped", q, response)
				}
			}
		}
	})
}

// squash is the whitespace normalization the locator matches under.
func squash(s string) string { return strings.Trim(normalize(s).text, " ") }

func BenchmarkLocate(b *testing.B) {
	resp := strings.Repeat("The quick brown fox jumps over the lazy dog.\n", 200) // 9 KB
	quotes := []string{"brown fox", "lazy  dog.\nThe", "not in there at all", "jumps over"}
	for b.Loop() {
		Locate(resp, quotes)
	}
}
