package toolcall

import "fmt"

// Call is a model's function call as read from its response.
type Call struct {
	Name string
	// Args are the arguments in first-written order; a key written twice
	// keeps its last value, as in the dict Python's json.loads builds.
	Args []Member
	// NameValue and ArgsValue locate the "name" and "arguments" values in
	// the response (zero for calls built in code).
	NameValue, ArgsValue Value
}

// CallFromJSON reads {"name": …, "arguments": {…}}. ok is false when the
// object lacks a string name or an object of arguments.
func CallFromJSON(obj Value) (c Call, ok bool) {
	name, okn := obj.Get("name")
	args, oka := obj.Get("arguments")
	if !okn || name.Kind != String || !oka || args.Kind != Object {
		return Call{}, false
	}
	c = Call{Name: name.Str, NameValue: name, ArgsValue: args}
	for _, k := range dictKeys(args) {
		v, _ := args.Get(k)
		m := Member{Key: k, Value: v}
		for _, am := range args.Members { // the key's last position, to point at
			if am.Key == k {
				m.KeyStart, m.KeyEnd = am.KeyStart, am.KeyEnd
			}
		}
		c.Args = append(c.Args, m)
	}
	return c, true
}

func (c Call) arg(name string) (Member, bool) {
	for _, m := range c.Args {
		if m.Key == name {
			return m, true
		}
	}
	return Member{}, false
}

// Fault is the kind of a call's mismatch with the ground truth.
type Fault int

// The faults, in the order BFCL's checker looks for them.
const (
	WrongFunction   Fault = iota + 1 // the name is not the ground truth's
	MissingRequired                  // a parameter the schema requires is absent
	UnexpectedArg                    // an argument outside the schema or the ground truth
	WrongType                        // an argument of the wrong type
	WrongValue                       // an argument not among the accepted values
	MissingArg                       // an optional parameter absent although "" is not accepted
)

// Mismatch says why a call fails and which argument is at fault.
type Mismatch struct {
	Fault  Fault
	Param  string // the argument at fault; "" for WrongFunction
	Reason string
}

// Match applies the Berkeley Function Calling Leaderboard's AST checker
// (simple and multiple categories, Python) to a call. It returns nil when
// the call is accepted:
//   - the name equals the ground truth's;
//   - every parameter the schema requires is present;
//   - every argument is in the schema and in the ground truth;
//   - every argument has the schema's type (an int is accepted for a float;
//     a value of the type of the accepted values is taken as a variable and
//     compared as is) and is among the accepted values: strings after
//     standardize, lists element-wise, dicts key by key;
//   - every ground-truth parameter left out accepts "".
//
// An error means the Ref itself is unusable (the ground-truth function is
// not offered, a schema type is unknown).
func (r *Ref) Match(c Call) (*Mismatch, error) {
	fn := r.function(r.Answer.Function)
	if fn == nil {
		return nil, fmt.Errorf("ground truth function %q is not among the offered functions", r.Answer.Function)
	}
	if c.Name != fn.Name {
		return &Mismatch{Fault: WrongFunction, Reason: fmt.Sprintf("function %q, want %q", c.Name, fn.Name)}, nil
	}
	for _, p := range fn.Required {
		if _, ok := c.arg(p); !ok {
			return &Mismatch{Fault: MissingRequired, Param: p, Reason: fmt.Sprintf("missing required argument %q", p)}, nil
		}
	}
	for _, a := range c.Args {
		p := fn.param(a.Key)
		acc := r.accepted(a.Key)
		if p == nil || acc == nil {
			return &Mismatch{Fault: UnexpectedArg, Param: a.Key, Reason: fmt.Sprintf("unexpected argument %q", a.Key)}, nil
		}
		m, err := checkArg(*p, a.Value, acc)
		if err != nil || m != nil {
			return m, err
		}
	}
	for _, a := range r.Answer.Params {
		if _, ok := c.arg(a.Name); !ok && !hasEmpty(a.Values) {
			return &Mismatch{Fault: MissingArg, Param: a.Name, Reason: fmt.Sprintf("missing argument %q (the reference gives it and \"\" is not accepted)", a.Name)}, nil
		}
	}
	return nil, nil
}

func (r *Ref) accepted(name string) []Value {
	for _, a := range r.Answer.Params {
		if a.Name == name {
			return a.Values
		}
	}
	return nil
}

func hasEmpty(vals []Value) bool {
	for _, v := range vals {
		if isEmptyString(v) {
			return true
		}
	}
	return false
}

// checkArg is the per-parameter part of BFCL's simple_function_checker.
func checkArg(p Param, v Value, acc []Value) (*Mismatch, error) {
	want, ok := schemaTypes[p.Type]
	if !ok {
		return nil, fmt.Errorf("parameter %q has unknown type %q", p.Name, p.Type)
	}
	var nested pyType
	if want == pyList && p.Items != "" {
		if nested, ok = schemaTypes[p.Items]; !ok {
			return nil, fmt.Errorf("parameter %q has unknown item type %q", p.Name, p.Items)
		}
	}
	got := typeOf(v)
	if p.Type == "float" && got == pyInt {
		got = pyFloat // Python would convert the int
	}
	valid, variable := typeCheck(v, got, acc, want, nested)
	if !valid {
		return &Mismatch{Fault: WrongType, Param: p.Name,
			Reason: fmt.Sprintf("argument %q: %s is a %s, want %s", p.Name, v, got, p.Type)}, nil
	}
	ok = true
	if !variable {
		switch {
		case want == pyDict:
			ok = dictMatch(v, acc)
		case want == pyList && nested == pyDict:
			ok = listDictMatch(v, acc)
		case want == pyStr:
			ok = pyIn(stdValue(v), stdStrings(acc))
		case want == pyList:
			ok = listMatch(v, acc)
		default:
			ok = pyIn(v, acc)
		}
	} else {
		ok = pyIn(v, acc)
	}
	if !ok {
		return &Mismatch{Fault: WrongValue, Param: p.Name,
			Reason: fmt.Sprintf("argument %q: %s not among %s", p.Name, v, Value{Kind: Array, Elems: acc})}, nil
	}
	return nil, nil
}

// typeCheck is BFCL's type_checker: the value must have the schema's type
// (for lists, each item the item type, against at least one accepted list),
// or else the type of the first accepted value that is not "" (a variable).
// variable is true when the accepted values' type differs from the schema's.
func typeCheck(v Value, got pyType, acc []Value, want, nested pyType) (valid, variable bool) {
	accType := firstType(acc)
	variable = accType != 0 && accType != want
	if got == want {
		if nested == 0 {
			return true, variable
		}
		for _, item := range acc {
			flag := true
			if item.Kind == Array {
				for _, e := range v.Elems {
					if ok, _ := typeCheck(e, typeOf(e), item.Elems, nested, 0); !ok {
						flag = false
						break
					}
				}
			}
			if flag {
				return true, variable
			}
		}
	}
	if accType != 0 && got == accType {
		return true, true
	}
	return false, variable
}

func firstType(acc []Value) pyType {
	for _, a := range acc {
		if !isEmptyString(a) {
			return typeOf(a)
		}
	}
	return 0
}

// stdStrings is the standardized strings among vals (BFCL's string_checker
// drops the rest).
func stdStrings(vals []Value) []Value {
	out := make([]Value, 0, len(vals))
	for _, v := range vals {
		if v.Kind == String {
			out = append(out, stdValue(v))
		}
	}
	return out
}

// listMatch is BFCL's list_checker: the list, its top-level strings
// standardized, must equal one accepted list standardized the same way.
// Python iterates an accepted "" as an empty list, so "" accepts [].
func listMatch(v Value, acc []Value) bool {
	got := Value{Kind: Array, Elems: make([]Value, len(v.Elems))}
	for i, e := range v.Elems {
		got.Elems[i] = stdValue(e)
	}
	for _, a := range acc {
		var want Value
		switch a.Kind {
		case Array:
			want = Value{Kind: Array, Elems: make([]Value, len(a.Elems))}
			for i, e := range a.Elems {
				want.Elems[i] = stdValue(e)
			}
		case String: // Python indexes a string by character
			want = Value{Kind: Array}
			for _, r := range a.Str {
				want.Elems = append(want.Elems, strVal(standardize(string(r))))
			}
		default:
			continue
		}
		if pyEqual(got, want) {
			return true
		}
	}
	return false
}

// dictMatch is BFCL's dict_checker: against some accepted {key: [values…]},
// every key of the dict is known and its value (standardized if a string)
// accepted, and every key left out accepts "".
func dictMatch(v Value, acc []Value) bool {
	for _, a := range acc {
		if isEmptyString(a) || a.Kind != Object {
			continue
		}
		if dictMatchOne(v, a) {
			return true
		}
	}
	return false
}

func dictMatchOne(v, a Value) bool {
	for _, k := range dictKeys(v) {
		x, _ := v.Get(k)
		vals, ok := a.Get(k)
		if !ok || !pyIn(stdValue(x), stdAll(vals)) {
			return false
		}
	}
	for _, k := range dictKeys(a) {
		vals, _ := a.Get(k)
		if _, ok := v.Get(k); !ok && !hasEmpty(vals.Elems) {
			return false
		}
	}
	return true
}

// stdAll standardizes the strings of an accepted list and keeps the rest.
func stdAll(vals Value) []Value {
	out := make([]Value, len(vals.Elems))
	for i, e := range vals.Elems {
		out[i] = stdValue(e)
	}
	return out
}

// listDictMatch is BFCL's list_dict_checker: some accepted list of dicts
// has the same length and matches dict by dict, in order.
func listDictMatch(v Value, acc []Value) bool {
	for _, a := range acc {
		if isEmptyString(a) && len(v.Elems) == 0 {
			return true // len("") == 0 in Python
		}
		if a.Kind != Array || len(a.Elems) != len(v.Elems) {
			continue
		}
		ok := true
		for i, e := range v.Elems {
			if e.Kind != Object || a.Elems[i].Kind != Object || !dictMatchOne(e, a.Elems[i]) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}
