package toolcall

import (
	"fmt"
	"math/rand/v2"
	"strings"
)

// The made-up tools of generated prompts. Their schemas use BFCL's
// structure ("type": "dict", required lists, enums), and their ground truths
// its conventions ("" for a parameter that may be left out, the default as
// the other accepted value).
var toolSchemas = []string{
	`{"name":"weather","description":"Current weather in a city.","parameters":{"type":"dict","properties":{` +
		`"city":{"type":"string","description":"The city."},` +
		`"unit":{"type":"string","enum":["celsius","fahrenheit"],"description":"Temperature unit. Default celsius."}},` +
		`"required":["city"]}}`,
	`{"name":"convert","description":"Convert money between currencies.","parameters":{"type":"dict","properties":{` +
		`"amount":{"type":"float","description":"The amount."},` +
		`"from":{"type":"string","description":"Currency code converted from."},` +
		`"to":{"type":"string","description":"Currency code converted to."}},` +
		`"required":["amount","from","to"]}}`,
	`{"name":"timer","description":"Start a countdown timer.","parameters":{"type":"dict","properties":{` +
		`"minutes":{"type":"integer","description":"Length in minutes."},` +
		`"label":{"type":"string","description":"What the timer is for."}},` +
		`"required":["minutes"]}}`,
	`{"name":"translate","description":"Translate a phrase.","parameters":{"type":"dict","properties":{` +
		`"text":{"type":"string","description":"The phrase."},` +
		`"lang":{"type":"string","enum":["french","german","spanish","italian"],"description":"Target language."}},` +
		`"required":["text","lang"]}}`,
	`{"name":"search","description":"Search the web.","parameters":{"type":"dict","properties":{` +
		`"query":{"type":"string","description":"What to look for."},` +
		`"limit":{"type":"integer","description":"Number of results. Default 5."}},` +
		`"required":["query"]}}`,
}

// Vocabularies of the free-string parameters; enums use their schema's list.
var (
	cities = []string{"Paris", "London", "Tokyo", "Cairo", "Lima", "Oslo", "Rome", "Delhi", "Sydney", "Boston",
		"Berlin", "Madrid", "Seoul", "Dublin", "Quito", "Nairobi", "Lisbon", "Vienna", "Denver", "Hanoi"}
	labels  = []string{"tea", "pasta", "eggs", "rice", "bread", "laundry", "nap", "pizza", "yoga", "oven"}
	phrases = []string{"hello", "thank you", "good night", "water", "friend", "apple", "book", "see you soon",
		"good morning", "how are you", "the train", "my house"}
	queries = []string{"cheap flights", "pizza near me", "go tutorials", "jazz music", "local news", "bike repair",
		"movie times", "best books", "tide tables", "bus routes", "chess openings", "bread recipes"}
	currencies = []string{"USD", "EUR", "GBP", "JPY", "CHF", "CAD"}
	languages  = []string{"french", "german", "spanish", "italian"}
	units      = []string{"celsius", "fahrenheit"}
)

// vocab is the set of values a string parameter draws from; a call flaw
// picks a wrong value among them.
var vocab = map[string][]string{
	"weather.city": cities, "weather.unit": units,
	"convert.from": currencies, "convert.to": currencies,
	"timer.label":    labels,
	"translate.text": phrases, "translate.lang": languages,
	"search.query": queries,
}

// draw is one generated request for a tool.
type draw struct {
	request string     // what the user asks
	think   string     // the short templated thought of a demonstration
	args    []Accepted // the ground truth
}

func accept(name string, vals ...Value) Accepted { return Accepted{Name: name, Values: vals} }

func pick[T any](r *rand.Rand, xs []T) T { return xs[r.IntN(len(xs))] }

// drawers generate a request per tool, by name.
var drawers = map[string]func(r *rand.Rand, s *settings) draw{
	"weather": func(r *rand.Rand, s *settings) draw {
		city := pick(r, s.words(cities))
		d := draw{think: "weather in " + city, args: []Accepted{accept("city", strVal(city))}}
		if s.omit(r, 3) {
			d.request = fmt.Sprintf(pick(r, []string{"Weather in %s?", "What is the weather in %s?", "How is the weather in %s today?"}), city)
			d.args = append(d.args, accept("unit", strVal(""), strVal("celsius")))
			return d
		}
		unit := pick(r, units)
		d.request = fmt.Sprintf(pick(r, []string{"Weather in %s in %s?", "What is the temperature in %s in %s?", "How warm is %s, in %s?"}), city, unit)
		d.args = append(d.args, accept("unit", strVal(unit)))
		return d
	},
	"convert": func(r *rand.Rand, s *settings) draw {
		amount := fmt.Sprint(s.number(r, 500))
		if r.IntN(2) == 0 {
			amount += pick(r, []string{".5", ".25", ".75", ".1"})
		}
		cur := s.words(currencies)
		i := r.IntN(len(cur))
		from, to := cur[i], cur[(i+1+r.IntN(len(cur)-1))%len(cur)]
		tmpl := pick(r, []string{"Convert %s %s to %s.", "How much is %s %s in %s?", "Exchange %s %s into %s."})
		return draw{
			request: fmt.Sprintf(tmpl, amount, from, to),
			think:   "convert " + from + " to " + to,
			args:    []Accepted{accept("amount", numVal(amount)), accept("from", strVal(from)), accept("to", strVal(to))},
		}
	},
	"timer": func(r *rand.Rand, s *settings) draw {
		m := s.number(r, 90)
		d := draw{think: fmt.Sprintf("timer %d min", m), args: []Accepted{accept("minutes", intVal(m))}}
		if s.omit(r, 2) {
			d.request = fmt.Sprintf(pick(r, []string{"Set a timer for %d minutes.", "Timer for %d min, please.", "Remind me in %d minutes."}), m)
			d.args = append(d.args, accept("label", strVal("")))
			return d
		}
		label := pick(r, s.words(labels))
		if r.IntN(2) == 0 {
			d.request = fmt.Sprintf("Set a %d minute timer for %s.", m, label)
		} else {
			d.request = fmt.Sprintf("Start the %s timer for %d minutes.", label, m)
		}
		d.args = append(d.args, accept("label", strVal(label)))
		return d
	},
	"translate": func(r *rand.Rand, s *settings) draw {
		text, lang := pick(r, s.words(phrases)), pick(r, languages)
		tmpl := pick(r, []string{`Translate "%s" into %s.`, `How do you say "%s" in %s?`, `Say "%s" in %s.`})
		return draw{
			request: fmt.Sprintf(tmpl, text, strings.ToUpper(lang[:1])+lang[1:]),
			think:   "translate to " + lang,
			args:    []Accepted{accept("text", strVal(text)), accept("lang", strVal(lang))},
		}
	},
	"search": func(r *rand.Rand, s *settings) draw {
		q := pick(r, s.words(queries))
		d := draw{think: "search " + q, args: []Accepted{accept("query", strVal(q))}}
		if s.omit(r, 2) {
			d.request = fmt.Sprintf(pick(r, []string{"Search the web for %s.", "Look up %s.", "Find %s online."}), q)
			d.args = append(d.args, accept("limit", strVal(""), intVal(5)))
			return d
		}
		n := s.number(r, 20)
		if r.IntN(2) == 0 {
			d.request = fmt.Sprintf("Find %d results for %s.", n, q)
		} else {
			d.request = fmt.Sprintf("Search %s, top %d results.", q, n)
		}
		d.args = append(d.args, accept("limit", intVal(n)))
		return d
	},
}

// parseTools reads toolSchemas.
func parseTools() ([]Function, error) {
	fns := make([]Function, 0, len(toolSchemas))
	for _, s := range toolSchemas {
		v, err := ParseJSON(s)
		if err != nil {
			return nil, fmt.Errorf("tool schema %.40s: %w", s, err)
		}
		f, err := ParseFunction(v)
		if err != nil {
			return nil, fmt.Errorf("tool schema %.40s: %w", s, err)
		}
		for _, p := range f.Params {
			if _, ok := schemaTypes[p.Type]; !ok {
				return nil, fmt.Errorf("tool %s: parameter %q has unknown type %q", f.Name, p.Name, p.Type)
			}
		}
		if drawers[f.Name] == nil {
			return nil, fmt.Errorf("tool %s has no request generator", f.Name)
		}
		fns = append(fns, f)
	}
	return fns, nil
}

// Signature renders a function compactly for a prompt: its name and each
// parameter as name:type, with "?" after optional ones, an enum's values
// joined by "|" as its type, and no type for plain strings, e.g.
// weather(city,unit?:celsius|fahrenheit).
func Signature(f Function) string {
	var b strings.Builder
	b.WriteString(f.Name)
	b.WriteByte('(')
	for i, p := range f.Params {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(p.Name)
		if !f.required(p.Name) {
			b.WriteByte('?')
		}
		if t := shortType(p); t != "" {
			b.WriteByte(':')
			b.WriteString(t)
		}
	}
	b.WriteByte(')')
	return b.String()
}

func shortType(p Param) string {
	if enum, ok := p.Schema.Get("enum"); ok && enum.Kind == Array && len(enum.Elems) > 0 {
		vals := make([]string, len(enum.Elems))
		for i, e := range enum.Elems {
			if e.Kind == String {
				vals[i] = e.Str
			} else {
				vals[i] = e.String()
			}
		}
		return strings.Join(vals, "|")
	}
	switch p.Type {
	case "string":
		return ""
	case "integer":
		return "int"
	case "boolean":
		return "bool"
	case "array":
		return "list"
	}
	return p.Type
}
