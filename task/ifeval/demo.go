package ifeval

import (
	"math/rand/v2"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// builder writes one demonstration for a spec from the topic's small
// grammar: an optional title line, body sentences, optional bullet lines and
// an optional end phrase. Each kind in flaw is broken the way a careless
// writer would (a comma, a capital, the forbidden word, a bullet too many
// or too few, no title, a wrong ending, too few or too many words) while
// the others are kept.
type builder struct {
	rng  *rand.Rand
	sp   *spec
	flaw map[string]bool
}

// sentence is a body sentence before rendering: comma says whether its
// comma place, if any, gets a comma.
type sentence struct {
	tmpl  string
	words map[string]string
	comma bool
}

func (b *builder) pick(list []string) string { return list[b.rng.IntN(len(list))] }

// nouns are the topic's nouns a sentence may use: never the forbidden word,
// and never one holding the keyword when the keyword is to be left out.
func (b *builder) nouns() []string {
	var out []string
	for _, n := range b.sp.topic.nouns {
		if b.sp.forbid != "" && strings.EqualFold(n, b.sp.forbid) {
			continue
		}
		if b.flaw[KindInclude] && strings.Contains(n, b.sp.include) {
			continue
		}
		out = append(out, n)
	}
	return out
}

// fill draws the slots of a template; first, when set, is {N}.
func (b *builder) fill(first string) map[string]string {
	ns := b.nouns()
	b.rng.Shuffle(len(ns), func(i, j int) { ns[i], ns[j] = ns[j], ns[i] })
	if first != "" {
		ns = append([]string{first}, slices.DeleteFunc(ns, func(n string) bool { return n == first })...)
	}
	adjs := slices.Clone(b.sp.topic.adjs)
	b.rng.Shuffle(len(adjs), func(i, j int) { adjs[i], adjs[j] = adjs[j], adjs[i] })
	m := map[string]string{"{A}": adjs[0], "{B}": adjs[1%len(adjs)]}
	for i, slot := range []string{"{N}", "{M}", "{K}"} {
		m[slot] = ns[i%len(ns)]
	}
	return m
}

func render(tmpl string, words map[string]string, comma bool) string {
	s := tmpl
	for k, v := range words {
		s = strings.ReplaceAll(s, k, v)
	}
	if comma {
		s = strings.Replace(s, "{,}", ",", 1)
	}
	return fixArticles(strings.ReplaceAll(s, "{,}", ""))
}

// fixArticles writes "an" for "a" before a vowel.
func fixArticles(s string) string {
	f := strings.Split(s, " ")
	for i := 0; i+1 < len(f); i++ {
		if (f[i] == "a" || f[i] == "A") && f[i+1] != "" && strings.ContainsRune("aeiouAEIOU", rune(f[i+1][0])) {
			f[i] += "n"
		}
	}
	return strings.Join(f, " ")
}

// response builds one candidate; ok is false when the word bounds cannot
// be met (or missed, for a flaw) with this draw.
func (b *builder) response() (string, bool) {
	sp := b.sp
	// Body sentences: the keyword first, the forbidden word slipped in.
	var body []sentence
	if sp.has[KindInclude] && !b.flaw[KindInclude] {
		body = append(body, sentence{tmpl: b.pick(bodyTemplates), words: b.fill(sp.include)})
	}
	if b.flaw[KindForbid] {
		body = append(body, sentence{tmpl: b.pick(bodyTemplates), words: b.fill(sp.forbid)})
		b.rng.Shuffle(len(body), func(i, j int) { body[i], body[j] = body[j], body[i] })
	}
	mandatory := len(body)
	for len(body) < 10 {
		body = append(body, sentence{tmpl: b.pick(bodyTemplates), words: b.fill("")})
	}
	commas := !sp.has[KindNoComma]
	for i := range body {
		body[i].comma = commas && b.rng.IntN(2) == 0
	}
	var head []string
	if sp.has[KindTitle] {
		t := render(b.pick(titleTemplates), b.fill(""), false)
		switch {
		case !b.flaw[KindTitle]:
			head = append(head, "<<"+t+">>")
		case b.rng.IntN(3) == 0:
			head = append(head, "<"+t+">")
		case b.rng.IntN(2) == 0:
			head = append(head, t)
		}
	}
	var bullets []string
	if sp.has[KindBullets] {
		k := sp.bullets
		if b.flaw[KindBullets] {
			if b.rng.IntN(2) == 0 {
				k++
			} else {
				k--
			}
		}
		for range k {
			bullets = append(bullets, "* "+render(b.pick(bulletTemplates), b.fill(""), false))
		}
	}
	var ending string
	if sp.has[KindEnd] {
		ending = sp.end
		if b.flaw[KindEnd] {
			switch b.rng.IntN(3) {
			case 0:
				ending = ""
			case 1:
				ending += " " + b.pick(endFlawTails)
			default:
				ending = strings.TrimRight(ending, ".?!")
			}
		}
	}
	assemble := func(n int) string {
		parts := make([]string, n)
		for i, s := range body[:n] {
			parts[i] = render(s.tmpl, s.words, s.comma)
		}
		para := strings.Join(parts, " ")
		lines := slices.Clone(head)
		if len(bullets) == 0 && ending != "" {
			para += " " + ending
		}
		lines = append(lines, para)
		lines = append(lines, bullets...)
		if len(bullets) > 0 && ending != "" {
			lines = append(lines, ending)
		}
		return strings.Join(lines, "\n")
	}
	// How many body sentences: the word bounds decide.
	n, ok := b.bodyLength(assemble, max(1, mandatory), len(body))
	if !ok {
		return "", false
	}
	if b.flaw[KindNoComma] {
		var places []int
		for i, s := range body[:n] {
			if strings.Contains(s.tmpl, "{,}") {
				places = append(places, i)
			}
		}
		if len(places) == 0 {
			return "", false
		}
		body[places[b.rng.IntN(len(places))]].comma = true
	}
	out := assemble(n)
	if sp.has[KindLowercase] {
		out = strings.ToLower(out)
		if b.flaw[KindLowercase] {
			out = capitalizeOne(b.rng, out)
		}
	}
	return out, true
}

// bodyLength picks a number of body sentences in [least, most] whose
// response meets the word bounds (one of the shortest that do), or, when
// words is flawed, just misses them on one side (chosen at random when
// both bounds exist).
func (b *builder) bodyLength(assemble func(int) string, least, most int) (int, bool) {
	sp := b.sp
	short := b.flaw[KindWords] && sp.lo > 0 && (sp.hi == 0 || b.rng.IntN(2) == 0)
	var fits []int
	for n := least; n <= most; n++ {
		w := countWords(assemble(n))
		var fit bool
		switch {
		case !sp.has[KindWords]:
			fit = n <= least+2
		case !b.flaw[KindWords]:
			fit = (sp.lo == 0 || w >= sp.lo) && (sp.hi == 0 || w < sp.hi)
		case short:
			fit = w < sp.lo
		default:
			fit = w >= sp.hi
		}
		if fit {
			fits = append(fits, n)
		}
	}
	switch {
	case len(fits) == 0:
		return 0, false
	case !b.flaw[KindWords]:
		return fits[b.rng.IntN(min(len(fits), 3))], true
	case short:
		return fits[len(fits)-1], true
	}
	return fits[0], true
}

// capitalizeOne gives one sentence, bullet or the title a capital first
// letter: the slip a writer makes under an all-lowercase rule.
func capitalizeOne(rng *rand.Rand, s string) string {
	var starts []int
	sentenceStart := true
	for i, r := range s {
		if unicode.IsLetter(r) {
			if sentenceStart {
				starts = append(starts, i)
			}
			sentenceStart = false
		}
		if r == '.' || r == '!' || r == '?' || r == '\n' {
			sentenceStart = true
		}
	}
	if len(starts) == 0 {
		return s
	}
	i := starts[rng.IntN(len(starts))]
	r, n := utf8.DecodeRuneInString(s[i:])
	return s[:i] + string(unicode.ToUpper(r)) + s[i+n:]
}
