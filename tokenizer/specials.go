package tokenizer

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// special is a token matched by its literal name in the text before any
// other processing (a Hugging Face "added token").
type special struct {
	name string
	id   int32
	// Hugging Face added-token options: lstrip/rstrip make the match absorb
	// the white space on its left/right; singleWord refuses a match that
	// touches a letter, digit or '_' on either side.
	lstrip, rstrip, singleWord bool
}

// matcher finds special-token names in text, leftmost first and, at one
// position, longest first.
type matcher struct {
	byFirst [256][]special // candidates by first byte, longest first
	// only is the first byte of every name when they all share one (as
	// Qwen's '<'), so find can jump with IndexByte; -1 otherwise.
	only int
	none bool // no names at all
}

func newMatcher(specials []special) *matcher {
	m := &matcher{}
	for _, s := range specials {
		if s.name == "" {
			continue
		}
		c := s.name[0]
		m.byFirst[c] = append(m.byFirst[c], s)
	}
	firsts := 0
	for c := range m.byFirst {
		l := m.byFirst[c]
		if len(l) == 0 {
			continue
		}
		sort.SliceStable(l, func(i, j int) bool { return len(l[i].name) > len(l[j].name) })
		firsts++
		m.only = c
	}
	m.none = firsts == 0
	if firsts != 1 {
		m.only = -1
	}
	return m
}

// find returns the leftmost special token in text[from:] as the range
// [start, end) it covers (white space included for lstrip/rstrip), or
// ok=false when there is none.
func (m *matcher) find(text string, from int) (start, end int, id int32, ok bool) {
	if m.none {
		return 0, 0, 0, false
	}
	for i := from; i < len(text); i++ {
		if m.only >= 0 {
			k := strings.IndexByte(text[i:], byte(m.only))
			if k < 0 {
				break
			}
			i += k
		}
		cands := m.byFirst[text[i]]
		if len(cands) == 0 {
			continue
		}
		for k := range cands {
			s := &cands[k]
			if !strings.HasPrefix(text[i:], s.name) {
				continue
			}
			e := i + len(s.name)
			if s.singleWord && (isWordBefore(text[:i]) || isWordAfter(text[e:])) {
				continue
			}
			b := i
			if s.lstrip {
				for b > from {
					r, w := utf8.DecodeLastRuneInString(text[from:b])
					if !unicode.IsSpace(r) {
						break
					}
					b -= w
				}
			}
			if s.rstrip {
				for e < len(text) {
					r, w := utf8.DecodeRuneInString(text[e:])
					if !unicode.IsSpace(r) {
						break
					}
					e += w
				}
			}
			return b, e, s.id, true
		}
	}
	return 0, 0, 0, false
}

func isWordRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

func isWordBefore(s string) bool {
	if s == "" {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s)
	return isWordRune(r)
}

func isWordAfter(s string) bool {
	if s == "" {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s)
	return isWordRune(r)
}

// encodeWithSpecials splits text at special tokens: plain stretches go to
// plain (with their offset in text), specials are appended directly.
func (m *matcher) encodeWithSpecials(text string, ids []int32, offs [][2]int,
	plain func(s string, base int, ids []int32, offs [][2]int) ([]int32, [][2]int)) ([]int32, [][2]int) {
	pos := 0
	for pos < len(text) {
		s, e, id, ok := m.find(text, pos)
		if !ok {
			return plain(text[pos:], pos, ids, offs)
		}
		if s > pos {
			ids, offs = plain(text[pos:s], pos, ids, offs)
		}
		ids = append(ids, id)
		offs = append(offs, [2]int{s, e})
		pos = e
	}
	return ids, offs
}
