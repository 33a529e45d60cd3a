package toolcall

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseJSON(t *testing.T) {
	tests := []struct {
		in     string
		out    string // compact re-rendering; "" for an error
		errAt  int    // the error's offset
		errMsg string
	}{
		{in: ` {"a": [1, -2.5e3, true, false, null], "b": {}} `, out: `{"a":[1,-2.5e3,true,false,null],"b":{}}`},
		{in: `"\u00e9\ud83d\ude00\n\"\\\/"`, out: `"é😀\n\"\\/"`},
		{in: `"\ud800x"`, out: `"` + "\uFFFD" + `x"`},
		{in: "\"a\xffb\"", out: `"a` + "\uFFFD" + `b"`},
		{in: `[]`, out: `[]`},
		{in: `0`, out: `0`},
		{in: `{"a":1,"a":2}`, out: `{"a":1,"a":2}`},
		{in: ``, errAt: 0, errMsg: "unexpected end of JSON"},
		{in: `{"a":1`, errAt: 6, errMsg: "unexpected end of JSON in an object"},
		{in: `{"a" 1}`, errAt: 5, errMsg: "expected ':' after a key"},
		{in: `{a:1}`, errAt: 1, errMsg: "expected a quoted key"},
		{in: `{"a":1,}`, errAt: 7, errMsg: "expected a quoted key"},
		{in: `[1 2]`, errAt: 3, errMsg: "expected ',' or ']' in an array"},
		{in: `01`, errAt: 1, errMsg: "unexpected text after the JSON value"},
		{in: `-`, errAt: 1, errMsg: "expected a digit"},
		{in: `1.`, errAt: 2, errMsg: "expected a digit after '.'"},
		{in: `1e+`, errAt: 3, errMsg: "expected a digit in an exponent"},
		{in: `"abc`, errAt: 4, errMsg: "unterminated string"},
		{in: "\"a\tb\"", errAt: 2, errMsg: "control character in a string"},
		{in: `"\x"`, errAt: 2, errMsg: `invalid escape \x`},
		{in: `"\u12g4"`, errAt: 3, errMsg: `invalid \u escape`},
		{in: `tru`, errAt: 0, errMsg: `unexpected character 't'`},
		{in: `NaN`, errAt: 0, errMsg: `unexpected character 'N'`},
		{in: strings.Repeat("[", MaxDepth+1), errAt: MaxDepth, errMsg: "JSON nested too deeply"},
		{in: strings.Repeat("1", maxNumberLen+1), errAt: 0, errMsg: "number too long"},
	}
	for _, tt := range tests {
		v, err := ParseJSON(tt.in)
		if tt.out != "" {
			if err != nil || v.String() != tt.out {
				t.Errorf("ParseJSON(%q) = %s, %v; want %s", tt.in, v, err, tt.out)
			}
			continue
		}
		var se *SyntaxError
		if !errors.As(err, &se) || se.Offset != tt.errAt || se.Msg != tt.errMsg {
			t.Errorf("ParseJSON(%.40q) error %v, want %q at %d", tt.in, err, tt.errMsg, tt.errAt)
		}
	}
}

func TestParseJSONOffsets(t *testing.T) {
	const s = `{"name": "weather", "arguments": {"city" : "Paris", "n": [1, 2.5]}}`
	v, err := parseJSON(s, 100)
	if err != nil {
		t.Fatal(err)
	}
	at := func(x Value) string { return s[x.Start-100 : x.End-100] }
	args, _ := v.Get("arguments")
	name, _ := v.Get("name")
	n, _ := args.Get("n")
	m := args.Members[0]
	got := []string{at(v), at(name), at(args), s[m.KeyStart-100 : m.KeyEnd-100], at(m.Value), at(n), at(n.Elems[1])}
	want := []string{s, `"weather"`, `{"city" : "Paris", "n": [1, 2.5]}`, `"city"`, `"Paris"`, `[1, 2.5]`, `2.5`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("located %q, want %q", got, want)
	}
}

// toAny converts a Value to what encoding/json decodes into an interface{}
// (json.Number for numbers), for comparison.
func toAny(v Value) any {
	switch v.Kind {
	case Null:
		return nil
	case Bool:
		return v.Bool
	case Number:
		return json.Number(v.Num)
	case String:
		return v.Str
	case Array:
		out := make([]any, len(v.Elems))
		for i, e := range v.Elems {
			out[i] = toAny(e)
		}
		return out
	case Object:
		out := map[string]any{}
		for _, m := range v.Members {
			out[m.Key] = toAny(m.Value)
		}
		return out
	}
	return "?"
}

// FuzzParseJSON checks the scanner against encoding/json: the same inputs
// parse (within the depth and number-length bounds), to the same values,
// with every offset inside the text; and a rendering parses back to itself.
func FuzzParseJSON(f *testing.F) {
	for _, s := range []string{
		`{"name":"weather","arguments":{"city":"Paris"}}`, `[1,-2.5e3,true,false,null]`, `"\u00e9\ud83d\ude00"`,
		`{"a":{"b":[{"c":"\n"}]}}`, "\"\xff\"", `{"a":1,}`, `1e400`, `-0`, `"\ud800\u0041"`, ` [ ] `,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, err := ParseJSON(s)
		var stdErr error
		if !json.Valid([]byte(s)) {
			stdErr = errors.New("invalid JSON")
		}
		var se *SyntaxError
		bounded := err == nil || !errors.As(err, &se) ||
			(se.Msg != "JSON nested too deeply" && se.Msg != "number too long")
		if bounded && (err == nil) != (stdErr == nil) {
			t.Fatalf("ParseJSON(%q) error %v, encoding/json %v", s, err, stdErr)
		}
		if err != nil {
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(s) {
				t.Fatalf("error %v outside the %d-byte input", err, len(s))
			}
			return
		}
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber()
		var want any
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("encoding/json validated %q but decodes it with %v", s, err)
		}
		if got := toAny(v); !reflect.DeepEqual(got, want) {
			t.Fatalf("ParseJSON(%q) = %#v, encoding/json %#v", s, got, want)
		}
		checkOffsets(t, s, v)
		out := v.String()
		if !utf8.ValidString(out) {
			t.Fatalf("rendering %q is not UTF-8", out)
		}
		back, err := ParseJSON(out)
		if err != nil || back.String() != out {
			t.Fatalf("rendering %q parses back to %s, %v", out, back, err)
		}
	})
}

func checkOffsets(t *testing.T, s string, v Value) {
	if v.Start < 0 || v.End > len(s) || v.Start >= v.End {
		t.Fatalf("value %s at %d..%d outside the %d-byte input", v, v.Start, v.End, len(s))
	}
	for _, e := range v.Elems {
		checkOffsets(t, s, e)
	}
	for _, m := range v.Members {
		if m.KeyStart < v.Start || m.KeyEnd > v.End || s[m.KeyStart] != '"' || s[m.KeyEnd-1] != '"' {
			t.Fatalf("key %q at %d..%d is not a quoted key", m.Key, m.KeyStart, m.KeyEnd)
		}
		checkOffsets(t, s, m.Value)
	}
}
