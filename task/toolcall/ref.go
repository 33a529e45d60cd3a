package toolcall

import (
	"errors"
	"fmt"
	"strings"

	"github.com/credo-rl/credo/task"
)

// Ref is what the call verifier needs of a prompt, in the structure of a
// BFCL record: the function schemas offered and the ground truth,
// {function_name: {param: [accepted values…]}}.
type Ref struct {
	Functions []Function
	Answer    Answer
	call      string // the reference call, compact JSON, set by NewRef
	think     string // a generated prompt's demonstration thought, for Task.Reference
	public    bool   // a public BFCL record's: the call is read wherever it stands (findCall)
}

// Function is one offered function's schema.
type Function struct {
	Name        string
	Description string
	Params      []Param  // the schema's properties, in written order
	Required    []string // the schema's "required" list
	Schema      Value    // the whole schema as given, for rendering prompts
}

// Param is one property of a function's parameters.
type Param struct {
	Name   string
	Type   string // BFCL's type name: string, integer, float, boolean, array, tuple, dict, any
	Items  string // the item type of an array or tuple, "" when not given
	Schema Value  // the property's schema as given
}

// Answer is the ground truth: one call and, per parameter, the values it
// accepts. An empty string among them means the parameter may be left out.
type Answer struct {
	Function string
	Params   []Accepted
}

// Accepted is one parameter's accepted values.
type Accepted struct {
	Name   string
	Values []Value
}

// NewRef checks that the ground truth names an offered function and that
// every schema type is one BFCL knows, and renders the reference call once.
func NewRef(fns []Function, ans Answer) (*Ref, error) {
	r := &Ref{Functions: fns, Answer: ans}
	fn := r.function(ans.Function)
	if fn == nil {
		return nil, fmt.Errorf("ground truth function %q is not among the %d offered", ans.Function, len(fns))
	}
	for _, f := range fns {
		for _, p := range f.Params {
			if _, ok := schemaTypes[p.Type]; !ok {
				return nil, fmt.Errorf("function %s: parameter %q has unknown type %q", f.Name, p.Name, p.Type)
			}
		}
	}
	for _, a := range ans.Params {
		if len(a.Values) == 0 {
			return nil, fmt.Errorf("ground truth %s: parameter %q accepts no value", ans.Function, a.Name)
		}
	}
	r.call = r.referenceCall().String()
	return r, nil
}

func (r *Ref) function(name string) *Function {
	for i := range r.Functions {
		if r.Functions[i].Name == name {
			return &r.Functions[i]
		}
	}
	return nil
}

func (f *Function) param(name string) *Param {
	for i := range f.Params {
		if f.Params[i].Name == name {
			return &f.Params[i]
		}
	}
	return nil
}

func (f *Function) required(name string) bool {
	for _, r := range f.Required {
		if r == name {
			return true
		}
	}
	return false
}

// ReferenceCall is the call the ground truth accepts first, as compact JSON
// {"name":…,"arguments":{…}}: each parameter takes its first accepted value.
// A parameter whose first value is "" is left out, unless the schema requires
// it (one BFCL record does that); it then takes its first other value. Dict
// parameters, and arrays of dicts, whose accepted values are themselves
// {key: [accepted…]}, are built the same way one level down.
func (r *Ref) ReferenceCall() string {
	if r.call != "" {
		return r.call
	}
	return r.referenceCall().String()
}

func (r *Ref) referenceCall() Value {
	var fn *Function
	if fn = r.function(r.Answer.Function); fn == nil {
		fn = &Function{}
	}
	args := objVal()
	for _, a := range r.Answer.Params {
		v, ok := firstAccepted(a.Values, fn.required(a.Name))
		if !ok {
			continue
		}
		if p := fn.param(a.Name); p != nil {
			v = expandAccepted(v, *p)
		}
		args.Members = append(args.Members, member(a.Name, v))
	}
	return objVal(member("name", strVal(r.Answer.Function)), member("arguments", args))
}

// firstAccepted is the first value of vals, skipping a leading "" when the
// value must be given; ok is false when the parameter is best left out.
func firstAccepted(vals []Value, mustGive bool) (Value, bool) {
	for _, v := range vals {
		if !isEmptyString(v) {
			return v, true
		}
		if !mustGive {
			return Value{}, false
		}
	}
	return Value{}, false
}

// expandAccepted turns a dict-of-accepted-lists into the dict it accepts
// first, for dict parameters and arrays of dicts.
func expandAccepted(v Value, p Param) Value {
	switch {
	case p.Type == "dict" && v.Kind == Object:
		return expandDict(v)
	case (p.Type == "array" || p.Type == "tuple") && p.Items == "dict" && v.Kind == Array:
		out := Value{Kind: Array, Elems: make([]Value, len(v.Elems))}
		for i, e := range v.Elems {
			if e.Kind == Object {
				e = expandDict(e)
			}
			out.Elems[i] = e
		}
		return out
	}
	return v
}

func expandDict(v Value) Value {
	out := objVal()
	for _, m := range v.Members {
		x := m.Value
		if x.Kind == Array {
			var ok bool
			if x, ok = firstAccepted(x.Elems, false); !ok {
				continue
			}
		}
		out.Members = append(out.Members, member(m.Key, x))
	}
	return out
}

// ReferenceBlock is the call reward's information block.
func ReferenceBlock(r *Ref) string { return "Reference call: " + r.ReferenceCall() }

// ParseFunction reads one BFCL function schema:
// {"name", "description", "parameters": {"type": "dict", "properties", "required"}}.
func ParseFunction(v Value) (Function, error) {
	if v.Kind != Object {
		return Function{}, fmt.Errorf("function schema is a %s, want an object", v.Kind)
	}
	name, ok := v.Get("name")
	if !ok || name.Kind != String {
		return Function{}, errors.New("function schema has no string \"name\"")
	}
	f := Function{Name: name.Str, Schema: v}
	if d, ok := v.Get("description"); ok && d.Kind == String {
		f.Description = d.Str
	}
	params, _ := v.Get("parameters")
	props, _ := params.Get("properties")
	for _, m := range props.Members {
		t, ok := m.Value.Get("type")
		if !ok || t.Kind != String {
			return Function{}, fmt.Errorf("function %s: parameter %q has no string \"type\"", f.Name, m.Key)
		}
		p := Param{Name: m.Key, Type: t.Str, Schema: m.Value}
		if items, ok := m.Value.Get("items"); ok {
			if it, ok := items.Get("type"); ok && it.Kind == String {
				p.Items = it.Str
			}
		}
		f.Params = append(f.Params, p)
	}
	req, _ := params.Get("required")
	for _, e := range req.Elems {
		if e.Kind != String {
			return Function{}, fmt.Errorf("function %s: \"required\" holds a %s", f.Name, e.Kind)
		}
		f.Required = append(f.Required, e.Str)
	}
	return f, nil
}

// ParseAnswer reads a BFCL ground truth, [{function_name: {param: [accepted…]}}],
// with exactly one call (the simple and multiple categories).
func ParseAnswer(v Value) (Answer, error) {
	if v.Kind != Array || len(v.Elems) != 1 {
		return Answer{}, fmt.Errorf("ground truth is not a list of one call")
	}
	call := v.Elems[0]
	if call.Kind != Object || len(call.Members) != 1 {
		return Answer{}, fmt.Errorf("ground truth call is not {function_name: {…}}")
	}
	a := Answer{Function: call.Members[0].Key}
	params := call.Members[0].Value
	if params.Kind != Object {
		return Answer{}, fmt.Errorf("ground truth %s: parameters are a %s", a.Function, params.Kind)
	}
	for _, m := range params.Members {
		if m.Value.Kind != Array {
			return Answer{}, fmt.Errorf("ground truth %s: parameter %q is not a list", a.Function, m.Key)
		}
		a.Params = append(a.Params, Accepted{Name: m.Key, Values: m.Value.Elems})
	}
	return a, nil
}

// ParseBFCL turns one BFCL question record and its possible-answer record
// (one line each of the JSON Lines files) into a prompt whose Ref the call
// verifier reads. The text lists the function schemas, then the question.
func ParseBFCL(question, answer string) (task.Prompt, error) {
	q, err := ParseJSON(question)
	if err != nil {
		return task.Prompt{}, fmt.Errorf("parse BFCL question: %w", err)
	}
	a, err := ParseJSON(answer)
	if err != nil {
		return task.Prompt{}, fmt.Errorf("parse BFCL answer: %w", err)
	}
	id, _ := q.Get("id")
	aid, _ := a.Get("id")
	if id.Kind != String || aid.Kind != String || id.Str != aid.Str {
		return task.Prompt{}, fmt.Errorf("BFCL question id %s and answer id %s differ", id, aid)
	}
	fv, _ := q.Get("function")
	var fns []Function
	for _, e := range fv.Elems {
		f, err := ParseFunction(e)
		if err != nil {
			return task.Prompt{}, fmt.Errorf("BFCL %s: %w", id.Str, err)
		}
		fns = append(fns, f)
	}
	gt, _ := a.Get("ground_truth")
	ans, err := ParseAnswer(gt)
	if err != nil {
		return task.Prompt{}, fmt.Errorf("BFCL %s: %w", id.Str, err)
	}
	ref, err := NewRef(fns, ans)
	if err != nil {
		return task.Prompt{}, fmt.Errorf("BFCL %s: %w", id.Str, err)
	}
	ref.public = true
	var b strings.Builder
	b.WriteString("Tools:\n")
	for _, f := range fns {
		b.WriteString(f.Schema.String())
		b.WriteByte('\n')
	}
	turns, _ := q.Get("question")
	for _, turn := range turns.Elems {
		for _, msg := range turn.Elems {
			role, _ := msg.Get("role")
			content, _ := msg.Get("content")
			fmt.Fprintf(&b, "%s: %s\n", capitalize(role.Str), content.Str)
		}
	}
	return task.Prompt{ID: id.Str, Text: strings.TrimRight(b.String(), "\n"), Ref: ref}, nil
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
