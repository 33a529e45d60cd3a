package toolcall

import (
	"strconv"
	"unicode/utf8"
)

// AppendJSON appends v as compact JSON (no spaces), members in their order.
// A Value that holds nothing is written as null.
func (v Value) AppendJSON(b []byte) []byte {
	switch v.Kind {
	case Bool:
		return strconv.AppendBool(b, v.Bool)
	case Number:
		return append(b, v.Num...)
	case String:
		return appendQuoted(b, v.Str)
	case Array:
		b = append(b, '[')
		for i, e := range v.Elems {
			if i > 0 {
				b = append(b, ',')
			}
			b = e.AppendJSON(b)
		}
		return append(b, ']')
	case Object:
		b = append(b, '{')
		for i, m := range v.Members {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendQuoted(b, m.Key)
			b = append(b, ':')
			b = m.Value.AppendJSON(b)
		}
		return append(b, '}')
	default:
		return append(b, "null"...)
	}
}

// String is v as compact JSON.
func (v Value) String() string { return string(v.AppendJSON(nil)) }

// MarshalJSON writes v as JSON, so a Ref holding values can be logged.
func (v Value) MarshalJSON() ([]byte, error) { return v.AppendJSON(nil), nil }

// appendQuoted writes s as a JSON string. Unlike encoding/json it leaves
// <, > and & alone, so a reference call reads as the policy should write it.
func appendQuoted(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, `\ufffd`...)
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c == '\n':
			b = append(b, '\\', 'n')
		case c == '\r':
			b = append(b, '\\', 'r')
		case c == '\t':
			b = append(b, '\\', 't')
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		default:
			b = append(b, c)
		}
		i++
	}
	return append(b, '"')
}

// Constructors for values built in code rather than parsed.

func strVal(s string) Value { return Value{Kind: String, Str: s} }

func intVal(n int) Value { return Value{Kind: Number, Num: strconv.Itoa(n)} }

func numVal(lit string) Value { return Value{Kind: Number, Num: lit} }

func objVal(ms ...Member) Value { return Value{Kind: Object, Members: ms} }

func member(key string, v Value) Member { return Member{Key: key, Value: v} }
