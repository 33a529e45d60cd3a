package ifeval

import (
	"strings"
	"testing"
)

// checkCase is one hand-written response for a constraint and whether it
// follows it in IFEval's strict mode.
type checkCase struct {
	response string
	want     bool
}

// checkTable holds, per instruction id, its kwargs and responses that
// satisfy and violate it. Each expectation follows IFEval's
// check_following for that id.
var checkTable = []struct {
	id     string
	kwargs string
	cases  []checkCase
}{
	{"change_case:capital_word_frequency", `{"capital_relation": "at least", "capital_frequency": 3}`, []checkCase{
		{"I LOVE THIS so much", true},
		{"The NASA and ESA teams met the UN.", true},
		{"DON'T STOP", true},                   // DO, N'T and STOP
		{"HELLO,WORLD again AND more", true},   // the comma splits HELLO and WORLD
		{"Only ONE or TWO here", false},        // 2
		{"Well-KNOWN Mixed-Case words", false}, // hyphenated words are one token, not upper
		{"", false},                            // strict mode: empty
	}},
	{"change_case:capital_word_frequency", `{"capital_relation": "less than", "capital_frequency": 2}`, []checkCase{
		{"Just ONE capital word.", true},
		{"no capitals at all", true},
		{"WE CANNOT", false}, // WE, CAN, NOT
		{"A B", false},       // single letters are upper words too
	}},
	{"change_case:english_capital", `{}`, []checkCase{
		{"THIS IS ALL IN CAPITAL LETTERS AND IN ENGLISH.", true},
		{"HELLO WORLD 123!", true},
		{"THIS IS ALMOST all capitals.", false},
		{"DAS IST NICHT DIE WAHRHEIT UND ICH BIN MIT DER ARBEIT NICHT FERTIG.", false}, // German
		{"12345", false}, // no cased letter: isupper() is false
	}},
	{"change_case:english_lowercase", `{}`, []checkCase{
		{"this is all lowercase and in english.", true},
		{"the sea is calm today, and i like it.", true},
		{"This starts with a capital.", false},
		{"das ist nicht die wahrheit und ich bin mit der arbeit nicht fertig.", false},
		{"   \n\t ", false},
	}},
	{"combination:repeat_prompt", `{"prompt_to_repeat": "Write a poem about the sea."}`, []checkCase{
		{"Write a poem about the sea. The sea is wide and blue.", true},
		{"  write a POEM about the sea.\nWaves roll.", true},
		{"Sure! Write a poem about the sea. Waves.", false},
		{"Write a poem about the sky. The sky.", false},
		{"Write a poem", false},
	}},
	{"combination:two_responses", `{}`, []checkCase{
		{"First answer.\n******\nSecond answer.", true},
		{"******First answer.******Second answer.******", true},
		{"Same.\n******\nSame.", false},
		{"One.\n******\n\n******\nTwo.", false}, // an empty middle response
		{"Only one response.", false},
		{"A ****** B ****** C", false},
	}},
	{"detectable_content:number_placeholders", `{"num_placeholders": 2}`, []checkCase{
		{"Dear [name], your order [id] ships.", true},
		{"[a[b] and [c]", true}, // "[a[b]" is one placeholder
		{"Dear [name], your order ships.", false},
		{"An open [bracket\nclosed] on the next line and [x]", false},
	}},
	{"detectable_content:postscript", `{"postscript_marker": "P.S."}`, []checkCase{
		{"Main text.\nP.S. Remember the milk.", true},
		{"Main text.\np. s. lowercase with a space.", true},
		{"Main text.\nP.P.S. contains p.s. too", true},
		{"Main text.\nPS without dots.", false},
		{"Main text.\nP.S without the last dot.", false},
	}},
	{"detectable_content:postscript", `{"postscript_marker": "P.P.S"}`, []checkCase{
		{"Body.\n\nP.P.S Bring snacks.", true},
		{"Body.\np. p. s. spaced out", true},
		{"Body.\nP.S. only one P.", false},
		{"Body.\nPPS no dots.", false},
	}},
	{"detectable_format:constrained_response", `{}`, []checkCase{
		{"My answer is yes.", true},
		{"Let me think. My answer is maybe. Because reasons.", true},
		{"my answer is yes.", false}, // case-sensitive
		{"My answer is yes", false},  // the period is part of the option
	}},
	{"detectable_format:json_format", `{}`, []checkCase{
		{`{"a": 1, "b": [true, null]}`, true},
		{"```json\n{\"a\": 1}\n```", true},
		{"```\n[1, 2, 3]\n```", true},
		{`"just a string"`, true},
		{`Here is JSON: {"a": 1}`, false},
		{`{"a": 1,}`, false},
		{"```json\n{\"a\": 1}\n``` trailing", false},
	}},
	{"detectable_format:multiple_sections", `{"section_spliter": "Section", "num_sections": 2}`, []checkCase{
		{"Section 1\nIntro.\nSection 2\nBody.", true},
		{"Section 1 a Section 2 b Section 3 c", true},
		{"SECTION 1\nIntro.\nSECTION 2\nBody.", false}, // case-sensitive
		{"Section 1\nIntro.\nSection two\nBody.", false},
		{"Section one and Section", false},
	}},
	{"detectable_format:number_bullet_lists", `{"num_bullets": 2}`, []checkCase{
		{"Intro\n* one\n* two", true},
		{"- one\n- two\nOutro", true},
		{"* one\n- two", true},
		{"* one\n* two\n* three", false},
		{"**bold** line\n* one", false}, // "**" does not start a bullet
		{"* one\n---", true},            // IFEval counts a dash rule as a bullet
		{"1. one\n2. two", false},
	}},
	{"detectable_format:number_highlighted_sections", `{"num_highlights": 2}`, []checkCase{
		{"*first* and *second*", true},
		{"**bold one** and *italic*", true},
		{"*only one* here", false},
		{"** ** and * *", false}, // empty highlights do not count
		{"*broken\nacross* lines *x*", false},
	}},
	{"detectable_format:title", `{}`, []checkCase{
		{"<<My Title>>\nText.", true},
		{"Text then <<a title>> inline.", true},
		{"<<   >> empty title", false},
		{"<<broken\ntitle>>", false},
		{"<Single brackets>", false},
	}},
	{"keywords:existence", `{"keywords": ["sea", "Boat"]}`, []checkCase{
		{"The SEA and the boat.", true},
		{"Research on boats.", true}, // substrings count, as in IFEval
		{"The sea only.", false},
		{"A ship.", false},
	}},
	{"keywords:forbidden_words", `{"forbidden_words": ["run", "bark"]}`, []checkCase{
		{"The dog barks and runs.", true}, // whole words only
		{"Brunch is fine.", true},
		{"The dog will RUN.", false},
		{"Bark! said the dog.", false},
		{"run_fast is one word", true}, // '_' is a word character
	}},
	{"keywords:frequency", `{"keyword": "cat", "relation": "at least", "frequency": 2}`, []checkCase{
		{"A cat and a Cat.", true},
		{"The category of cats.", true}, // substrings count
		{"One cat.", false},
		{"No felines.", false},
	}},
	{"keywords:frequency", `{"keyword": "the", "relation": "less than", "frequency": 2}`, []checkCase{
		{"The end.", true},
		{"A dog.", true},
		{"The cat and the dog.", false},
		{"Then there.", false},
	}},
	{"keywords:letter_frequency", `{"letter": "q", "let_relation": "at least", "let_frequency": 2}`, []checkCase{
		{"Quick quiz.", true},
		{"QQ", true},
		{"One q.", false},
		{"none", false},
	}},
	{"keywords:letter_frequency", `{"letter": "!", "let_relation": "less than", "let_frequency": 2}`, []checkCase{
		{"Hi!", true},
		{"Calm.", true},
		{"Wow!!", false},
		{"Yes! No!", false},
	}},
	{"language:response_language", `{"language": "de"}`, []checkCase{
		{"Das ist ein schöner Tag und ich bin sehr glücklich.", true},
		{"Ich habe keine Zeit, aber wir sehen uns morgen.", true},
		{"This is an English sentence about the weather.", false},
		{"Questo è un bel giorno e sono molto felice.", false},
		{"12345 !!!", true}, // no letters: undetermined counts as followed
	}},
	{"language:response_language", `{"language": "hi"}`, []checkCase{
		{"यह एक अच्छा दिन है और मैं बहुत खुश हूँ।", true},
		{"मी आज शाळेत जात आहे आणि मला आनंद आहे.", false}, // Marathi
		{"This is English.", false},
	}},
	{"language:response_language", `{"language": "fa"}`, []checkCase{
		{"این یک روز خوب است و من خیلی خوشحال هستم.", true},
		{"هذا يوم جميل وأنا سعيد جدا في المدينة.", false}, // Arabic
		{"یہ ایک اچھا دن ہے اور میں بہت خوش ہوں۔", false}, // Urdu
	}},
	{"language:response_language", `{"language": "ko"}`, []checkCase{
		{"오늘은 좋은 날입니다. I am happy.", true},
		{"今日はいい天気です。", false}, // Japanese
	}},
	{"language:response_language", `{"language": "bg"}`, []checkCase{
		{"Това е хубав ден и аз съм много щастлив, че сме тук.", true},
		{"Это хороший день, и я очень счастлив, что мы здесь.", false}, // Russian
	}},
	{"length_constraints:nth_paragraph_first_word", `{"num_paragraphs": 3, "nth_paragraph": 2, "first_word": "Elm"}`, []checkCase{
		{"First paragraph.\n\nElm trees grow.\n\nThird one.", true},
		{"First.\n\n\"Elm,\" she said.\n\nThird.", true},
		{"First.\n\nOak trees.\n\nThird.", false},
		{"First.\n\nElm trees.", false},                    // two paragraphs
		{"First.\n\nElm.\n\nThird.\n\nFourth.", false},     // four paragraphs
		{"\n\nFirst.\n\nElm trees.\n\nThird.", false},      // paragraph 2 of the raw split is "First."
		{"First.\n\nElmwood is not elm.\n\nThird.", false}, // the whole first word must match
	}},
	{"length_constraints:number_paragraphs", `{"num_paragraphs": 2}`, []checkCase{
		{"One.\n***\nTwo.", true},
		{"***\nOne.\n***\nTwo.\n***", true}, // empty first and last pieces are dropped
		{"One.\n***\n***\nTwo.", false},     // an empty middle paragraph
		{"One.\n***\nTwo.\n***\nThree.", false},
		{"One.\n\nTwo.", false},
	}},
	{"length_constraints:number_sentences", `{"relation": "less than", "num_sentences": 3}`, []checkCase{
		{"One sentence. Two sentences.", true},
		{"Mr. Smith went to Washington. He liked it.", true}, // Mr. is an abbreviation
		{"One. Two. Three.", false},
		{"Is it? Yes! Sure.", false},
	}},
	{"length_constraints:number_sentences", `{"relation": "at least", "num_sentences": 2}`, []checkCase{
		{"One line\nand more text. Then another", true},
		{"Version 3.14 is out. Get it", true},
		{"A single line\nwith newlines\nbut no stops", false},
		{"Dr. Who is here", false},
	}},
	{"length_constraints:number_words", `{"relation": "at least", "num_words": 5}`, []checkCase{
		{"one two three four five", true},
		{"it's a well-known fact", true}, // it, s, a, well, known, fact
		{"one two three four", false},
		{"*** --- !!!", false},
	}},
	{"length_constraints:number_words", `{"relation": "less than", "num_words": 3}`, []checkCase{
		{"Two words", true},
		{"Ünïcödé wörds", true},
		{"One two three", false},
		{"snake_case counts as one and so on", false},
	}},
	{"punctuation:no_comma", `{}`, []checkCase{
		{"No commas here.", true},
		{"A fullwidth comma，is not a comma for IFEval.", true},
		{"One, two.", false},
		{",", false},
	}},
	{"startend:end_checker", `{"end_phrase": "Is there anything else I can help with?"}`, []checkCase{
		{"Here you go. Is there anything else I can help with?", true},
		{"Here. is there anything else i can help with?  \n", true},
		{"\"Quoted. Is there anything else I can help with?\"", true},
		{"Is there anything else I can help with? Thanks.", false},
		{"Is there anything else I can help with", false},
	}},
	{"startend:quotation", `{}`, []checkCase{
		{"\"Wrapped in quotes.\"", true},
		{"  \"\"  ", true},
		{"\"", false},
		{"“Curly quotes”", false},
		{"\"Missing the end", false},
	}},
}

func TestCheckTable(t *testing.T) {
	seen := map[string]bool{}
	for _, tc := range checkTable {
		c, err := ParseJSON(tc.id, []byte(tc.kwargs))
		if err != nil {
			t.Fatalf("ParseJSON(%s, %s): %v", tc.id, tc.kwargs, err)
		}
		seen[tc.id] = true
		var pass, fail int
		for _, cc := range tc.cases {
			r := c.Check(cc.response)
			if r.OK != cc.want {
				t.Errorf("%s %s: Check(%q) = %v (%s), want %v", tc.id, tc.kwargs, cc.response, r.OK, r.Reason, cc.want)
			}
			if cc.want {
				pass++
			} else {
				fail++
			}
			checkSpans(t, tc.id, cc.response, r)
		}
		if pass == 0 || fail == 0 {
			t.Errorf("%s: table needs satisfying and violating responses (%d, %d)", tc.id, pass, fail)
		}
	}
	for _, id := range IDs() {
		if !seen[id] {
			t.Errorf("no table cases for %s", id)
		}
	}
}

// checkSpans asserts that spans lie inside the response, in order, and
// that a response with something to point at gets spans.
func checkSpans(t *testing.T, id, response string, r Result) {
	t.Helper()
	if len(r.Spans) == 0 {
		t.Errorf("%s: Check(%q) has no spans", id, truncate(response))
	}
	prev := 0
	for _, s := range r.Spans {
		if s.Start < prev || s.End < s.Start || s.End > len(response) {
			t.Errorf("%s: Check(%q) span %+v out of range or order (len %d)", id, truncate(response), s, len(response))
		}
		prev = s.Start
	}
	if r.Reason == "" {
		t.Errorf("%s: Check(%q) gives no reason", id, truncate(response))
	}
}

func truncate(s string) string {
	if len(s) > 60 {
		return s[:60] + "…"
	}
	return s
}

// TestSpans checks that spans point at what the decision rests on.
func TestSpans(t *testing.T) {
	tests := []struct {
		id, kwargs, response string
		want                 []string // the text of each span
	}{
		{"punctuation:no_comma", `{}`, "a, b, c", []string{",", ","}},
		{"keywords:forbidden_words", `{"forbidden_words": ["sea"]}`, "The sea, the SEA, seashell.", []string{"sea", "SEA"}},
		{"detectable_format:title", `{}`, "x <<T>> y", []string{"<<T>>"}},
		{"detectable_format:number_bullet_lists", `{"num_bullets": 1}`, "intro\n* a\n- b", []string{"* a", "- b"}},
		{"startend:end_checker", `{"end_phrase": "Bye."}`, "Hello. Bye.\n", []string{"Bye."}},
		{"startend:end_checker", `{"end_phrase": "Bye."}`, "Hello. Ciao.", []string{"iao."}},
		{"length_constraints:number_words", `{"relation": "at least", "num_words": 9}`, "a b", []string{"a b"}},
		{"keywords:existence", `{"keywords": ["b", "a"]}`, "xa yb", []string{"a", "b"}},
		{"detectable_content:number_placeholders", `{"num_placeholders": 1}`, "[x] and [y]", []string{"[x]", "[y]"}},
		{"change_case:english_lowercase", `{}`, "all good but One word", []string{"One"}},
		{"change_case:capital_word_frequency", `{"capital_relation": "at least", "capital_frequency": 1}`, "a BIG deal", []string{"BIG"}},
		{"combination:repeat_prompt", `{"prompt_to_repeat": "Say hi"}`, " Say hi there", []string{"Say hi"}},
		{"length_constraints:nth_paragraph_first_word", `{"num_paragraphs": 2, "nth_paragraph": 2, "first_word": "then"}`, "A.\n\nThen, b.", []string{"Then,"}},
		{"startend:quotation", `{}`, `"x"`, []string{`"`, `"`}},
	}
	for _, tt := range tests {
		c, err := ParseJSON(tt.id, []byte(tt.kwargs))
		if err != nil {
			t.Fatal(err)
		}
		r := c.Check(tt.response)
		var got []string
		for _, s := range r.Spans {
			got = append(got, tt.response[s.Start:s.End])
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s on %q: spans %q, want %q", tt.id, tt.response, got, tt.want)
		}
	}
}
