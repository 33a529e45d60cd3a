package toolcall

import (
	"math/big"
	"strconv"
	"strings"
)

// BFCL's checker is Python: it compares the values json.loads gives, with
// Python's types and equality. This file mirrors the parts it relies on.

// pyType is the Python type json.loads gives a JSON value.
type pyType uint8

const (
	pyNone pyType = iota + 1
	pyBool
	pyInt
	pyFloat
	pyStr
	pyList
	pyDict
)

var pyTypeNames = [...]string{"?", "NoneType", "bool", "int", "float", "str", "list", "dict"}

func (t pyType) String() string {
	if int(t) < len(pyTypeNames) {
		return pyTypeNames[t]
	}
	return "?"
}

func typeOf(v Value) pyType {
	switch v.Kind {
	case Null:
		return pyNone
	case Bool:
		return pyBool
	case Number:
		if v.IsInt() {
			return pyInt
		}
		return pyFloat
	case String:
		return pyStr
	case Array:
		return pyList
	case Object:
		return pyDict
	}
	return 0
}

// schemaTypes is BFCL's PYTHON_TYPE_MAPPING: schema type name to Python type.
var schemaTypes = map[string]pyType{
	"string":  pyStr,
	"integer": pyInt,
	"float":   pyFloat,
	"boolean": pyBool,
	"array":   pyList,
	"tuple":   pyList,
	"dict":    pyDict,
	"any":     pyStr,
}

// standardize is BFCL's standardize_string: spaces and ",./-_*^" removed,
// lowercased, single quotes turned into double quotes, so "April 1, 2024"
// and "april 1 2024" compare equal.
func standardize(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch r {
		case ' ', ',', '.', '/', '-', '_', '*', '^':
			continue
		}
		b.WriteRune(r)
	}
	return strings.ReplaceAll(strings.ToLower(b.String()), "'", `"`)
}

// stdValue standardizes v when it is a string and leaves it alone otherwise.
func stdValue(v Value) Value {
	if v.Kind == String {
		v.Str = standardize(v.Str)
	}
	return v
}

// isEmptyString reports whether v is "", BFCL's mark of an omissible parameter.
func isEmptyString(v Value) bool { return v.Kind == String && v.Str == "" }

// pyIn is Python's `v in list`.
func pyIn(v Value, list []Value) bool {
	for _, e := range list {
		if pyEqual(v, e) {
			return true
		}
	}
	return false
}

// pyEqual is Python's == on values json.loads gives: numbers and booleans
// compare by value (True == 1 == 1.0), lists element by element, dicts by
// key set and values (the last of duplicate keys wins), strings exactly.
func pyEqual(a, b Value) bool {
	if numeric(a) && numeric(b) {
		return numEqual(a, b)
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Null:
		return true
	case String:
		return a.Str == b.Str
	case Array:
		if len(a.Elems) != len(b.Elems) {
			return false
		}
		for i := range a.Elems {
			if !pyEqual(a.Elems[i], b.Elems[i]) {
				return false
			}
		}
		return true
	case Object:
		ka, kb := dictKeys(a), dictKeys(b)
		if len(ka) != len(kb) {
			return false
		}
		for _, k := range ka {
			x, _ := a.Get(k)
			y, ok := b.Get(k)
			if !ok || !pyEqual(x, y) {
				return false
			}
		}
		return true
	}
	return false
}

// dictKeys lists an object's distinct keys, in first-written order (the
// order of the Python dict json.loads builds).
func dictKeys(v Value) []string {
	keys := make([]string, 0, len(v.Members))
	seen := make(map[string]bool, len(v.Members))
	for _, m := range v.Members {
		if !seen[m.Key] {
			seen[m.Key] = true
			keys = append(keys, m.Key)
		}
	}
	return keys
}

func numeric(v Value) bool { return v.Kind == Number || v.Kind == Bool }

// numEqual compares two numbers or booleans by value. Two ints compare
// exactly; a comparison involving a float goes through float64 (Python
// compares int with float exactly; the two differ only beyond 2^53).
func numEqual(a, b Value) bool {
	la, lb := numLiteral(a), numLiteral(b)
	if typeOf(a) != pyFloat && typeOf(b) != pyFloat {
		x, errx := strconv.ParseInt(la, 10, 64)
		y, erry := strconv.ParseInt(lb, 10, 64)
		if errx == nil && erry == nil {
			return x == y
		}
		var bx, by big.Int
		_, okx := bx.SetString(la, 10)
		_, oky := by.SetString(lb, 10)
		return okx && oky && bx.Cmp(&by) == 0
	}
	// ParseFloat gives ±Inf on overflow, as Python's float() does.
	x, _ := strconv.ParseFloat(la, 64)
	y, _ := strconv.ParseFloat(lb, 64)
	return x == y
}

func numLiteral(v Value) string {
	if v.Kind == Bool {
		if v.Bool {
			return "1"
		}
		return "0"
	}
	return v.Num
}
