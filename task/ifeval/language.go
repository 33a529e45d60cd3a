package ifeval

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// languages maps the ISO 639-1 codes IFEval allows for
// language:response_language to their names.
var languages = map[string]string{
	"en": "English", "es": "Spanish", "pt": "Portuguese", "ar": "Arabic", "hi": "Hindi",
	"fr": "French", "ru": "Russian", "de": "German", "ja": "Japanese", "it": "Italian",
	"bn": "Bengali", "uk": "Ukrainian", "th": "Thai", "ur": "Urdu", "ta": "Tamil",
	"te": "Telugu", "bg": "Bulgarian", "ko": "Korean", "pl": "Polish", "he": "Hebrew",
	"fa": "Persian", "vi": "Vietnamese", "ne": "Nepali", "sw": "Swahili", "kn": "Kannada",
	"mr": "Marathi", "gu": "Gujarati", "pa": "Punjabi", "ml": "Malayalam", "fi": "Finnish",
}

// LanguageName is the English name of a language code IFEval allows for
// language:response_language, and whether it is one.
func LanguageName(code string) (string, bool) {
	name, ok := languages[code]
	return name, ok
}

// language:response_language — detectLanguage gives the language code; an
// undetermined language (no letters) counts as followed, as IFEval counts
// langdetect's failure.
func parseLanguage(a *args) (Constraint, error) {
	code, err := a.str("language")
	if err != nil {
		return Constraint{}, err
	}
	name, ok := languages[code]
	if !ok {
		codes := make([]string, 0, len(languages))
		for c := range languages {
			codes = append(codes, c)
		}
		sort.Strings(codes)
		return Constraint{}, fmt.Errorf("language: unknown code %q (known: %s)", code, strings.Join(codes, " "))
	}
	text := fmt.Sprintf("Your ENTIRE response should be in %s language, no other language is allowed.", name)
	return Constraint{text: text, check: func(s string) Result {
		got, ok := detectLanguage(s)
		switch {
		case !ok:
			return Result{OK: true, Spans: whole(s), Reason: "no letters, language undetermined"}
		case got != code:
			return Result{Spans: whole(s), Reason: fmt.Sprintf("language detected: %s, want %s", got, code)}
		}
		return Result{OK: true, Spans: whole(s), Reason: "language detected: " + got}
	}}, nil
}

// detectLanguage stands in for langdetect, which IFEval uses, with a small
// heuristic: the script with the most letters decides (Hangul → ko, Thai →
// th, Bengali → bn, Gujarati → gu, Gurmukhi → pa, Tamil → ta, Telugu → te,
// Kannada → kn, Malayalam → ml, Hebrew → he, Greek → el, kana → ja, Han
// without kana → zh-cn …); within a script shared by several of IFEval's
// languages, stopwords and letters only one of them uses decide (Latin: en,
// de, fr, es, pt, it, nl, pl, fi, sw, vi; Cyrillic: ru, bg, uk; Arabic: ar,
// fa, ur; Devanagari: hi, mr, ne). Latin text with no evidence either way
// is taken as English.
//
// What it cannot do: tell apart languages outside these lists (Dutch-like
// Afrikaans, Catalan, Serbian Cyrillic …: it reports the nearest listed
// one); judge mixed-language text beyond the majority script; detect
// romanised text (Hindi in Latin letters reads as English); give
// probabilities. Short texts are as unreliable as with langdetect. ok is
// false when the text has no letters, where langdetect raises an error.
func detectLanguage(s string) (code string, ok bool) {
	var counts [64]int // by index in scripts
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		if r < utf8.RuneSelf {
			if 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' {
				counts[0]++ // Latin
			}
			continue
		}
		if !unicode.IsLetter(r) && !unicode.IsMark(r) {
			continue
		}
		for k, sc := range scripts {
			if unicode.Is(sc.table, r) {
				counts[k] += sc.weight
				break
			}
		}
	}
	best := -1
	for k := range scripts { // fixed order: ties go to the earlier script
		if counts[k] > 0 && (best < 0 || counts[k] > counts[best]) {
			best = k
		}
	}
	if best < 0 {
		return "", false
	}
	if sc := scripts[best]; sc.code == "ja/zh" {
		if counts[kanaIndex] > 0 {
			return "ja", true
		}
		return "zh-cn", true
	}
	if sc := scripts[best]; sc.group != nil {
		return sc.group.pick(s), true
	}
	return scripts[best].code, true
}

type script struct {
	table  *unicode.RangeTable
	code   string // the language, when the script has one
	weight int    // letters per character: a Hangul or Han character stands for a syllable
	group  *group // languages sharing the script
}

// kanaIndex is the index of kana in scripts; Latin is first.
const kanaIndex = 5

var kanaTable = &unicode.RangeTable{R16: []unicode.Range16{{Lo: 0x3040, Hi: 0x30ff, Stride: 1}, {Lo: 0x31f0, Hi: 0x31ff, Stride: 1}, {Lo: 0xff66, Hi: 0xff9f, Stride: 1}}}

// scripts in tie-break order.
var scripts = []*script{
	{table: unicode.Latin, weight: 1, group: latinGroup},
	{table: unicode.Cyrillic, weight: 1, group: cyrillicGroup},
	{table: unicode.Arabic, weight: 1, group: arabicGroup},
	{table: unicode.Devanagari, weight: 1, group: devanagariGroup},
	{table: unicode.Hangul, code: "ko", weight: 2},
	{table: kanaTable, code: "ja/zh", weight: 2}, // kanaIndex
	{table: unicode.Han, code: "ja/zh", weight: 2},
	{table: unicode.Bengali, code: "bn", weight: 1},
	{table: unicode.Gujarati, code: "gu", weight: 1},
	{table: unicode.Gurmukhi, code: "pa", weight: 1},
	{table: unicode.Tamil, code: "ta", weight: 1},
	{table: unicode.Telugu, code: "te", weight: 1},
	{table: unicode.Kannada, code: "kn", weight: 1},
	{table: unicode.Malayalam, code: "ml", weight: 1},
	{table: unicode.Thai, code: "th", weight: 1},
	{table: unicode.Hebrew, code: "he", weight: 1},
	{table: unicode.Greek, code: "el", weight: 1},
	{table: unicode.Georgian, code: "ka", weight: 1},
	{table: unicode.Armenian, code: "hy", weight: 1},
	{table: unicode.Sinhala, code: "si", weight: 1},
	{table: unicode.Oriya, code: "or", weight: 1},
	{table: unicode.Khmer, code: "km", weight: 1},
	{table: unicode.Lao, code: "lo", weight: 1},
	{table: unicode.Myanmar, code: "my", weight: 1},
	{table: unicode.Ethiopic, code: "am", weight: 1},
	{table: unicode.Tibetan, code: "bo", weight: 1},
}

// group holds the languages that share a script, with their evidence:
// frequent function words, and letters only some of them use.
type group struct {
	langs     []string         // in tie-break order; the first is the default
	stopwords map[string][]int // word → indices of the languages it is frequent in
	letters   map[rune][]int   // letter → indices of the languages that use it
}

// pick scores each language: one point per stopword, one per telling
// letter; the highest wins, ties going to the earlier language.
func (g *group) pick(s string) string {
	score := make([]int, len(g.langs))
	for _, r := range s {
		if r >= utf8.RuneSelf {
			for _, l := range g.letters[unicode.ToLower(r)] {
				score[l]++
			}
		}
	}
	langWords(s, func(w string) {
		for _, l := range g.stopwords[strings.ToLower(w)] {
			score[l]++
		}
	})
	best := 0
	for l := range score {
		if score[l] > score[best] {
			best = l
		}
	}
	return g.langs[best]
}

// langWords calls f on each word, letters and combining marks together (so
// that Indic words stay whole).
func langWords(s string, f func(string)) {
	start := -1
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		in := isWord(r) || unicode.IsMark(r)
		if in && start < 0 {
			start = i
		} else if !in && start >= 0 {
			f(s[start:i])
			start = -1
		}
		i += n
	}
	if start >= 0 {
		f(s[start:])
	}
}

func newGroup(langs []string, words map[string]string, letters map[string]string) *group {
	g := &group{langs: langs, stopwords: map[string][]int{}, letters: map[rune][]int{}}
	for i, l := range langs {
		for _, w := range strings.Fields(words[l]) {
			g.stopwords[w] = append(g.stopwords[w], i)
		}
		for _, r := range letters[l] {
			g.letters[r] = append(g.letters[r], i)
		}
	}
	return g
}

var latinGroup = newGroup(
	[]string{"en", "de", "fr", "es", "pt", "it", "nl", "pl", "fi", "sw", "vi"},
	map[string]string{
		"en": "the be to of and a in that have i it for not on with he as you do at this but his by from they we her she or an will my all would there their what so if about who which me when can like no just him into your some could them than then now only its over also our because any these us is are was were has had been am",
		"de": "der die das und ist nicht ich zu den mit sie ein eine es auf für dem von auch sich wir sind im wie aber oder wenn noch nur bei nach aus einem einer des war hat haben werden kann schon sehr mehr",
		"fr": "le les et de des un une est que qui pas je vous il elle du en pour dans ce sur au avec sont ne nous mais plus cette très été être fait ont aux",
		"es": "el los las y de que es un una no en por con para se del al lo su como pero más está son muy también cuando porque esto yo usted hay ser fue",
		"pt": "o os as de do da que é um uma não para com em no na se por mais eu você são dos das ao pelo pela muito como mas foi ser está isso também quando",
		"it": "il la e di che è un una per non sono le del della con gli lo si mi ma come anche questo nel nella alla al dei delle ho hai ha più molto essere cosa quando perché",
		"nl": "de het een en van is dat in niet op te zijn met voor ik je die er maar om ook als dan",
		"pl": "w nie na się z że to jest do jak co ale po tak czy jestem są od dla jego przez który które jej mnie",
		"fi": "ja on ei se että oli hän minä sinä me te he tämä mutta kun niin kuin myös ovat olen olet mitä jos vain tai joka ole sen siitä hänen",
		"sw": "na ya wa kwa ni la za katika kama hii hiyo yake wake sana lakini pia huo cha vya mimi wewe sisi kuwa kwamba ili hata bado tu hao yetu",
		"vi": "và của là có không những cho trong được một các với này người đã để khi đến cũng như",
	},
	map[string]string{
		"de": "äöüß", "fi": "äö", "fr": "èêàçœùûîïë", "es": "ñ¿¡áéíóú", "pt": "ãõçâêôáéó",
		"it": "òùèàì", "pl": "ąćęłńśźżó",
		"vi": "ăơưđạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ",
	},
)

var cyrillicGroup = newGroup(
	[]string{"ru", "bg", "uk"},
	map[string]string{
		"ru": "и в не на что это как он я с по но к у из за то же от так было был она мы вы они для бы",
		"bg": "и в не на е са за от да се че това като той тя ние вие те с по но към ще има със",
		"uk": "і в не на що це як він я з по але до та у від так був була ми ви вони для",
	},
	map[string]string{"ru": "ыэё", "uk": "іїєґ"},
)

var arabicGroup = newGroup(
	[]string{"ar", "fa", "ur"},
	map[string]string{
		"ar": "في من على أن إلى هذا التي الذي عن مع كان هو هي لا ما",
		"fa": "و در به از که این را با است برای آن یک می",
		"ur": "کے کی ہے میں اور سے کو نے یہ کہ ایک ہیں پر",
	},
	map[string]string{"ar": "يكةى", "fa": "پچژگیک", "ur": "ٹڈڑںےہھپچگیک"},
)

var devanagariGroup = newGroup(
	[]string{"hi", "mr", "ne"},
	map[string]string{
		"hi": "है और के की में का को से यह एक हैं पर भी नहीं तो था ने",
		"mr": "आहे आणि या हे च्या ला नाही मी तो ते की व आहेत होते पण",
		"ne": "छ र को मा हो पनि गर्न छन् यो त्यो भएको गरेको थियो हुन्छ",
	},
	nil,
)
