package ifeval

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Stated returns the sentences of an IFEval prompt that state instruction
// id with its keyword arguments, in prompt order, each trimmed of spaces;
// nil when none does (or id is unknown). A record's reward reads them as
// its information block: the instruction in the prompt's own words.
//
// A sentence ends at . ! or ? followed by a space, a quote or the end, or
// at a line break. Each sentence scores 2 for a cue of the instruction's
// kind (a word like "comma" for punctuation:no_comma), 2 for holding one
// of its string arguments (a keyword, the end phrase, the postscript
// marker) and 1 for one of its numbers (in digits or words, ±1 for "more
// than 800" meaning 801); the sentences with the highest score of at
// least 2 are the statement.
func Stated(prompt, id string, kwargs map[string]any) []string {
	cue, known := statedCues[id]
	if !known {
		return nil
	}
	strs, nums := statedArgs(id, kwargs)
	var best []string
	top := 1
	for _, s := range sentences(prompt) {
		low := strings.ToLower(s)
		score := 0
		if cue != nil && cue.MatchString(s) {
			score += 2
		}
		if slicesAny(strs, func(a string) bool { return a != "" && strings.Contains(low, strings.ToLower(a)) }) {
			score += 2
		}
		if slicesAny(nums, func(n string) bool { return containsWord(low, n) }) {
			score++
		}
		switch {
		case score > top:
			top, best = score, []string{s}
		case score == top && top >= 2:
			best = append(best, s)
		}
	}
	return best
}

func slicesAny(xs []string, f func(string) bool) bool {
	for _, x := range xs {
		if f(x) {
			return true
		}
	}
	return false
}

// containsWord says whether w occurs in s between non-alphanumeric bytes.
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		a, b := i+j, i+j+len(w)
		if (a == 0 || !isAlnum(s[a-1])) && (b == len(s) || !isAlnum(s[b])) {
			return true
		}
		i = a + 1
	}
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// sentences splits a prompt into trimmed, non-empty sentences.
func sentences(s string) []string {
	var out []string
	add := func(t string) {
		if t = strings.TrimSpace(t); t != "" {
			out = append(out, t)
		}
	}
	start := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n':
			add(s[start:i])
			start = i + 1
		case c == '.' || c == '!' || c == '?':
			j := i + 1
			for j < len(s) && (s[j] == '"' || s[j] == '\'' || s[j] == ')') {
				j++
			}
			if (j == len(s) || s[j] == ' ' || s[j] == '\n' || s[j] == '\t') && !abbreviation(s[start:i+1]) {
				add(s[start:j])
				start, i = j, j-1
			}
		}
	}
	add(s[start:])
	return out
}

// abbreviation says whether s ends in an abbreviation that ends no
// sentence ("i.e.", "e.g.").
func abbreviation(s string) bool {
	low := strings.ToLower(s)
	for _, a := range []string{" i.e.", " e.g.", " vs.", " mr.", " mrs.", " dr.", " st."} {
		if strings.HasSuffix(" "+low, a) {
			return true
		}
	}
	return false
}

// statedCues are the words that state each instruction kind; nil where
// only the arguments can tell (keywords:frequency).
var statedCues = map[string]*regexp.Regexp{
	"change_case:capital_word_frequency":            regexp.MustCompile(`(?i)capital|all.caps|upper.?case`),
	"change_case:english_capital":                   regexp.MustCompile(`(?i)capital|all.caps|upper.?case`),
	"change_case:english_lowercase":                 regexp.MustCompile(`(?i)lower.?case|small letters|capital`),
	"combination:repeat_prompt":                     regexp.MustCompile(`(?i)repeat|word for word|verbatim|exactly as`),
	"combination:two_responses":                     regexp.MustCompile(`(?i)two (different |distinct )?(responses|answers|versions|replies|ways)|\*{6}`),
	"detectable_content:number_placeholders":        regexp.MustCompile(`(?i)placeholder|square bracket|\[[a-z ]+\]`),
	"detectable_content:postscript":                 regexp.MustCompile(`(?i)postscript|p\.\s?p?\.?\s?s\b|p\.s\.`),
	"detectable_format:constrained_response":        regexp.MustCompile(`(?i)my answer is|following options|one of the following`),
	"detectable_format:json_format":                 regexp.MustCompile(`(?i)json`),
	"detectable_format:multiple_sections":           regexp.MustCompile(`(?i)section`),
	"detectable_format:number_bullet_lists":         regexp.MustCompile(`(?i)bullet|markdown list|\* this is`),
	"detectable_format:number_highlighted_sections": regexp.MustCompile(`(?i)highlight|italic|\*[a-z ]+\*`),
	"detectable_format:title":                       regexp.MustCompile(`(?i)title|<<`),
	"keywords:existence":                            regexp.MustCompile(`(?i)keyword|include the words?`),
	"keywords:forbidden_words":                      regexp.MustCompile(`(?i)not (use|include|say|mention)|avoid|without (using|the word)|forbidden|never (use|say)`),
	"keywords:frequency":                            nil,
	"keywords:letter_frequency":                     regexp.MustCompile(`(?i)letter`),
	"language:response_language":                    regexp.MustCompile(`(?i)language|only in|entirely in|no other language`),
	"length_constraints:nth_paragraph_first_word":   regexp.MustCompile(`(?i)paragraph`),
	"length_constraints:number_paragraphs":          regexp.MustCompile(`(?i)paragraph|\*\*\*`),
	"length_constraints:number_sentences":           regexp.MustCompile(`(?i)sentence`),
	"length_constraints:number_words":               regexp.MustCompile(`(?i)\bwords?\b|word count`),
	"punctuation:no_comma":                          regexp.MustCompile(`(?i)comma`),
	"startend:end_checker":                          regexp.MustCompile(`(?i)\bend (your|the|it|with)|finish (your|the|with)|last (word|sentence|line)|conclude`),
	"startend:quotation":                            regexp.MustCompile(`(?i)quot`),
}

// statedArgs are the strings and the numbers (as words to look for) of an
// instruction's arguments that a stating sentence may quote.
func statedArgs(id string, kw map[string]any) (strs, nums []string) {
	for key, v := range kw {
		switch x := v.(type) {
		case string:
			switch key {
			case "relation", "capital_relation", "let_relation", "let_frequency":
				continue // "less than", "at least": said of every bound
			case "language":
				if name, ok := LanguageName(x); ok {
					strs = append(strs, name)
				}
				continue
			case "prompt_to_repeat":
				continue // the prompt holds it by definition: only the cue tells
			}
			strs = append(strs, x)
		case []any:
			for _, e := range x {
				if s, ok := e.(string); ok {
					strs = append(strs, s)
				}
			}
		case float64, int:
			n, _ := strconv.Atoi(fmt.Sprint(x))
			for _, m := range []int{n, n - 1, n + 1} {
				if m >= 0 {
					nums = append(nums, strconv.Itoa(m))
					if w, ok := numberWords[m]; ok {
						nums = append(nums, w)
					}
				}
			}
		}
	}
	if id == "keywords:letter_frequency" { // a letter is found as a quoted or lone letter
		var quoted []string
		for _, s := range strs {
			quoted = append(quoted, "'"+s+"'", `"`+s+`"`, "letter "+s)
		}
		strs = quoted
	}
	return strs, nums
}

var numberWords = map[int]string{1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve", 15: "fifteen", 20: "twenty"}
