package judge

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/credo-rl/credo/reward"
)

// maxQuotes bounds the quotes located per verdict; a judge that sends more
// has the rest dropped, so a hostile answer cannot make location quadratic
// in its size.
const maxQuotes = 64

// Locate finds each quote in response and returns the byte spans (strength
// 1, sorted by start, one span per distinct range) and how many quotes were
// not found. A quote matches exactly first, at its first occurrence not
// already taken by an earlier quote; failing that, it matches with every run
// of whitespace on both sides collapsed to one space (and the quote's ends
// trimmed), mapped back to byte offsets of the original response. A blank
// quote is never found. A quote repeated more often than it occurs still
// counts as found. The spans' effect is Neutral; LocateEffects gives them
// the quotes' own.
func Locate(response string, quotes []string) (spans []reward.Span, dropped int) {
	return LocateEffects(response, quotes, nil)
}

// LocateEffects is Locate with each quote's effect (effects[j] for
// quotes[j]; Neutral where effects is short) on its span: a judge's "−"
// quote becomes a span the span relevance source gives negative credit
// when the reward's advantage is positive (reward.Effect). A range two
// quotes share keeps the first one's effect.
func LocateEffects(response string, quotes []string, effects []reward.Effect) (spans []reward.Span, dropped int) {
	if len(quotes) > maxQuotes {
		dropped = len(quotes) - maxQuotes
		quotes = quotes[:maxQuotes]
	}
	used := map[[2]int]bool{}
	var norm *normalized // built on the first quote that needs it
	for j, q := range quotes {
		r, ok := find(response, q, used)
		if !ok {
			if norm == nil {
				n := normalize(response)
				norm = &n
			}
			r, ok = norm.find(q, used)
		}
		if !ok {
			dropped++
			continue
		}
		if !used[r] {
			used[r] = true
			e := reward.Neutral
			if j < len(effects) {
				e = effects[j]
			}
			spans = append(spans, reward.Span{Start: r[0], End: r[1], Strength: 1, Effect: e})
		}
	}
	sort.Slice(spans, func(a, b int) bool {
		if spans[a].Start != spans[b].Start {
			return spans[a].Start < spans[b].Start
		}
		return spans[a].End < spans[b].End
	})
	return spans, dropped
}

// find returns the first occurrence of q in s whose range is not used, else
// the first occurrence; ok is false when q is blank or absent.
func find(s, q string, used map[[2]int]bool) (r [2]int, ok bool) {
	if strings.TrimSpace(q) == "" {
		return r, false
	}
	first := [2]int{-1, -1}
	for from := 0; from <= len(s); {
		i := strings.Index(s[from:], q)
		if i < 0 {
			break
		}
		r = [2]int{from + i, from + i + len(q)}
		if !used[r] {
			return r, true
		}
		if first[0] < 0 {
			first = r
		}
		from += i + 1
	}
	return first, first[0] >= 0
}

// normalized is a text with each whitespace run collapsed to one space; orig
// maps every byte of text to the offset of the byte it came from (a space to
// the start of its run).
type normalized struct {
	text string
	orig []int
}

func normalize(s string) normalized {
	text := make([]byte, 0, len(s))
	orig := make([]int, 0, len(s))
	inSpace := false
	for i := 0; i < len(s); {
		c, size := s[i], 1
		var space bool
		if c < utf8.RuneSelf { // ASCII, most of any response: no decoding
			space = c == ' ' || '\t' <= c && c <= '\r'
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			space = unicode.IsSpace(r)
		}
		switch {
		case space && !inSpace:
			text = append(text, ' ')
			orig = append(orig, i)
		case !space:
			text = append(text, s[i:i+size]...)
			for k := range size {
				orig = append(orig, i+k)
			}
		}
		inSpace = space
		i += size
	}
	return normalized{string(text), orig}
}

// find locates q, whitespace-normalized and trimmed, and maps the match back
// to the original text. The match starts and ends on non-space bytes, so the
// range never takes in the whitespace around the quoted words.
func (n *normalized) find(q string, used map[[2]int]bool) (r [2]int, ok bool) {
	nq := strings.Trim(normalize(q).text, " ")
	if nq == "" {
		return r, false
	}
	first := [2]int{-1, -1}
	for from := 0; from <= len(n.text); {
		i := strings.Index(n.text[from:], nq)
		if i < 0 {
			break
		}
		j := from + i
		r = [2]int{n.orig[j], n.orig[j+len(nq)-1] + 1}
		if !used[r] {
			return r, true
		}
		if first[0] < 0 {
			first = r
		}
		from = j + 1
	}
	return first, first[0] >= 0
}
