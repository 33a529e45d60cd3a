package ifeval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/credo-rl/credo/reward"
)

// Constraint is one IFEval instruction with its keyword arguments: it can
// state itself (Text) and judge a response (Check). Build one with Parse.
type Constraint struct {
	id    string
	text  string
	check func(response string) Result
}

// Result is a constraint's judgement of one response.
type Result struct {
	OK bool
	// Spans are the byte ranges of the response the decision rests on: the
	// commas found, the forbidden words, the title, the bullet lines, the last
	// words for an ending; the whole response for counts and for the absence
	// of something anywhere.
	Spans  []reward.Span
	Reason string // what was found, e.g. "2 commas"
}

// ID is the IFEval instruction id, e.g. "punctuation:no_comma".
func (c Constraint) ID() string { return c.id }

// Text is the constraint's own sentence, used as its information block,
// e.g. "In your entire response, refrain from the use of any commas.".
func (c Constraint) Text() string { return c.text }

// Check judges a response in IFEval's strict mode: a response that is empty
// or only whitespace follows no instruction. Every checker runs in time
// linear in the response's length (keyword searches: times the keyword's).
func (c Constraint) Check(response string) Result {
	if c.check == nil {
		return Result{Spans: whole(response), Reason: "zero Constraint (build one with Parse)"}
	}
	if a, b := strip(response); a == b {
		return Result{Spans: whole(response), Reason: "empty response"}
	}
	return c.check(response)
}

// IDs lists the instruction ids Parse knows, sorted.
func IDs() []string {
	ids := make([]string, 0, len(parsers))
	for id := range parsers {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Parse builds the constraint for an IFEval instruction id and its keyword
// arguments, as json.Unmarshal decodes them into a map (numbers float64,
// lists []any). Unknown ids, unknown or missing arguments and out-of-range
// values give an error, never a panic. A nil-valued argument counts as
// absent, as IFEval's build_description treats None.
func Parse(id string, kwargs map[string]any) (Constraint, error) {
	p, ok := parsers[id]
	if !ok {
		return Constraint{}, fmt.Errorf("unknown IFEval instruction id %q", id)
	}
	k := &args{id: id, m: kwargs, used: map[string]bool{}}
	c, err := p(k)
	if err == nil {
		err = k.unused()
	}
	if err != nil {
		return Constraint{}, fmt.Errorf("parse %s kwargs: %w", id, err)
	}
	c.id = id
	return c, nil
}

// ParseJSON is Parse with the keyword arguments as a JSON object (empty or
// "null" for none).
func ParseJSON(id string, kwargs []byte) (Constraint, error) {
	m := map[string]any{}
	if len(bytes.TrimSpace(kwargs)) > 0 {
		d := json.NewDecoder(bytes.NewReader(kwargs))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			return Constraint{}, fmt.Errorf("parse %s kwargs: %w", id, err)
		}
		if d.More() {
			return Constraint{}, fmt.Errorf("parse %s kwargs: trailing data after the JSON object", id)
		}
		switch v := v.(type) {
		case nil:
		case map[string]any:
			m = v
		default:
			return Constraint{}, fmt.Errorf("parse %s kwargs: want a JSON object, got %T", id, v)
		}
	}
	return Parse(id, m)
}

// args reads keyword arguments and remembers which were read, so that
// unknown ones are an error.
type args struct {
	id   string
	m    map[string]any
	used map[string]bool
}

var errMissing = errors.New("missing")

func (a *args) get(name string) (any, error) {
	a.used[name] = true
	v, ok := a.m[name]
	if !ok || v == nil {
		return nil, fmt.Errorf("%s: %w", name, errMissing)
	}
	return v, nil
}

// maxInt bounds counts and thresholds; IFEval's are below 2,000.
const maxInt = 1 << 30

func (a *args) int(name string) (int, error) {
	v, err := a.get(name)
	if err != nil {
		return 0, err
	}
	var f float64
	switch v := v.(type) {
	case float64:
		f = v
	case int:
		f = float64(v)
	case int64:
		f = float64(v)
	case json.Number:
		f, err = v.Float64()
		if err != nil {
			return 0, fmt.Errorf("%s: %q is not a number", name, v)
		}
	default:
		return 0, fmt.Errorf("%s: want a number, got %T", name, v)
	}
	if f < 0 || f > maxInt || f != float64(int64(f)) {
		return 0, fmt.Errorf("%s: want a whole number in [0, %d], got %v", name, maxInt, v)
	}
	return int(f), nil
}

func (a *args) str(name string) (string, error) {
	v, err := a.get(name)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s: want a string, got %T", name, v)
	}
	return s, nil
}

// nonEmpty is str stripped of surrounding whitespace, which must leave text.
func (a *args) nonEmpty(name string) (string, error) {
	s, err := a.str(name)
	if err != nil {
		return "", err
	}
	s = stripped(s)
	if s == "" {
		return "", fmt.Errorf("%s: empty", name)
	}
	return s, nil
}

// words is a non-empty list of non-empty strings.
func (a *args) words(name string) ([]string, error) {
	v, err := a.get(name)
	if err != nil {
		return nil, err
	}
	var list []string
	switch v := v.(type) {
	case []string:
		list = append(list, v...)
	case []any:
		for i, x := range v {
			s, ok := x.(string)
			if !ok {
				return nil, fmt.Errorf("%s[%d]: want a string, got %T", name, i, x)
			}
			list = append(list, s)
		}
	default:
		return nil, fmt.Errorf("%s: want a list of strings, got %T", name, v)
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("%s: empty list", name)
	}
	for i, s := range list {
		if stripped(s) == "" {
			return nil, fmt.Errorf("%s[%d]: empty", name, i)
		}
	}
	return list, nil
}

// relation is IFEval's comparison: "less than" or "at least".
type relation bool

const (
	lessThan relation = false
	atLeast  relation = true
)

func (r relation) String() string {
	if r == atLeast {
		return "at least"
	}
	return "less than"
}

// holds is n < threshold for "less than", n ≥ threshold for "at least".
func (r relation) holds(n, threshold int) bool {
	if r == atLeast {
		return n >= threshold
	}
	return n < threshold
}

func (a *args) relation(name string) (relation, error) {
	s, err := a.str(name)
	if err != nil {
		return false, err
	}
	switch s {
	case "less than":
		return lessThan, nil
	case "at least":
		return atLeast, nil
	}
	return false, fmt.Errorf("%s: want \"less than\" or \"at least\", got %q", name, s)
}

func (a *args) unused() error {
	var extra []string
	for k, v := range a.m {
		if !a.used[k] && v != nil {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 {
		sort.Strings(extra)
		return fmt.Errorf("unknown arguments %s", strings.Join(extra, ", "))
	}
	return nil
}

// parsers maps each instruction id to the function that reads its
// arguments. The checkers live in one file per id family.
var parsers = map[string]func(*args) (Constraint, error){
	"change_case:capital_word_frequency":            parseCapitalWordFrequency,
	"change_case:english_capital":                   parseEnglishCapital,
	"change_case:english_lowercase":                 parseEnglishLowercase,
	"combination:repeat_prompt":                     parseRepeatPrompt,
	"combination:two_responses":                     parseTwoResponses,
	"detectable_content:number_placeholders":        parsePlaceholders,
	"detectable_content:postscript":                 parsePostscript,
	"detectable_format:constrained_response":        parseConstrainedResponse,
	"detectable_format:json_format":                 parseJSONFormat,
	"detectable_format:multiple_sections":           parseSections,
	"detectable_format:number_bullet_lists":         parseBullets,
	"detectable_format:number_highlighted_sections": parseHighlights,
	"detectable_format:title":                       parseTitle,
	"keywords:existence":                            parseExistence,
	"keywords:forbidden_words":                      parseForbidden,
	"keywords:frequency":                            parseFrequency,
	"keywords:letter_frequency":                     parseLetterFrequency,
	"language:response_language":                    parseLanguage,
	"length_constraints:nth_paragraph_first_word":   parseNthParagraph,
	"length_constraints:number_paragraphs":          parseParagraphs,
	"length_constraints:number_sentences":           parseSentences,
	"length_constraints:number_words":               parseWords,
	"punctuation:no_comma":                          parseNoComma,
	"startend:end_checker":                          parseEnd,
	"startend:quotation":                            parseQuotation,
}

// plural renders "1 word" and "3 words".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// listText renders a list as "a", "a and b", "a, b and c".
func listText(words []string, and string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return strings.Join(words[:len(words)-1], ", ") + " " + and + " " + words[len(words)-1]
}
