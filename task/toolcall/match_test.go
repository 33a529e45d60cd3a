package toolcall

import (
	"strings"
	"testing"
)

// matchRef builds a one-function Ref "f" from its properties, required list
// and ground truth parameters, all JSON.
func matchRef(t *testing.T, props, required, gt string) *Ref {
	t.Helper()
	q := `{"id":"m","question":[[{"role":"user","content":"?"}]],"function":[{"name":"f","parameters":{"type":"dict","properties":` +
		props + `,"required":` + required + `}}]}`
	p, err := ParseBFCL(q, `{"id":"m","ground_truth":[{"f":`+gt+`}]}`)
	if err != nil {
		t.Fatalf("ParseBFCL: %v", err)
	}
	return p.Ref.(*Ref)
}

// TestMatchRules checks BFCL's matching rules one at a time.
func TestMatchRules(t *testing.T) {
	tests := []struct {
		name           string
		props, req, gt string
		args           string
		fault          Fault // 0: accepted
	}{
		// numbers
		{"int for float", `{"x":{"type":"float"}}`, `["x"]`, `{"x":[10.0]}`, `{"x":10}`, 0},
		{"float for float", `{"x":{"type":"float"}}`, `["x"]`, `{"x":[10]}`, `{"x":10.0}`, 0},
		{"exponent float", `{"x":{"type":"float"}}`, `["x"]`, `{"x":[1500.0]}`, `{"x":1.5e3}`, 0},
		{"float for int", `{"x":{"type":"integer"}}`, `["x"]`, `{"x":[10]}`, `{"x":10.0}`, WrongType},
		{"string for int", `{"x":{"type":"integer"}}`, `["x"]`, `{"x":[10]}`, `{"x":"10"}`, WrongType},
		{"bool for int", `{"x":{"type":"integer"}}`, `["x"]`, `{"x":[1]}`, `{"x":true}`, WrongType},
		{"other int", `{"x":{"type":"integer"}}`, `["x"]`, `{"x":[10,11]}`, `{"x":12}`, WrongValue},
		{"big int", `{"x":{"type":"integer"}}`, `["x"]`, `{"x":[123456789012345678901234567890]}`, `{"x":123456789012345678901234567890}`, 0},
		{"big int differs", `{"x":{"type":"integer"}}`, `["x"]`, `{"x":[123456789012345678901234567890]}`, `{"x":123456789012345678901234567891}`, WrongValue},
		// variables: accepted values of another type than the schema's
		{"variable", `{"x":{"type":"integer"}}`, `["x"]`, `{"x":["n"]}`, `{"x":"n"}`, 0},
		{"variable compared exactly", `{"x":{"type":"integer"}}`, `["x"]`, `{"x":["n"]}`, `{"x":"N"}`, WrongValue},
		{"variable, schema type", `{"x":{"type":"integer"}}`, `["x"]`, `{"x":["n"]}`, `{"x":5}`, WrongValue},
		// strings
		{"standardized", `{"s":{"type":"string"}}`, `["s"]`, `{"s":["New York, NY"]}`, `{"s":"new york ny"}`, 0},
		{"punctuation kept", `{"s":{"type":"string"}}`, `["s"]`, `{"s":["a+b"]}`, `{"s":"ab"}`, WrongValue},
		{"quotes swapped", `{"s":{"type":"string"}}`, `["s"]`, `{"s":["it's"]}`, `{"s":"it\"s"}`, 0},
		{"any is a string", `{"s":{"type":"any"}}`, `["s"]`, `{"s":["data"]}`, `{"s":"DATA"}`, 0},
		{"boolean", `{"b":{"type":"boolean"}}`, `["b"]`, `{"b":[true]}`, `{"b":true}`, 0},
		{"boolean differs", `{"b":{"type":"boolean"}}`, `["b"]`, `{"b":[true]}`, `{"b":false}`, WrongValue},
		// omission
		{"omitted with \"\"", `{"s":{"type":"string"},"u":{"type":"string"}}`, `["s"]`, `{"s":["a"],"u":["","c"]}`, `{"s":"a"}`, 0},
		{"omitted without \"\"", `{"s":{"type":"string"},"u":{"type":"string"}}`, `["s"]`, `{"s":["a"],"u":["c"]}`, `{"s":"a"}`, MissingArg},
		{"\"\" given as a value", `{"s":{"type":"string"},"u":{"type":"string"}}`, `["s"]`, `{"s":["a"],"u":["","c"]}`, `{"s":"a","u":""}`, 0},
		{"required missing", `{"s":{"type":"string"},"u":{"type":"string"}}`, `["s","u"]`, `{"s":["a"],"u":["","c"]}`, `{"s":"a"}`, MissingRequired},
		{"in schema, not in ground truth", `{"s":{"type":"string"},"u":{"type":"string"}}`, `["s"]`, `{"s":["a"]}`, `{"s":"a","u":"c"}`, UnexpectedArg},
		{"not in schema", `{"s":{"type":"string"}}`, `["s"]`, `{"s":["a"]}`, `{"s":"a","z":1}`, UnexpectedArg},
		// lists
		{"list standardized", `{"l":{"type":"array","items":{"type":"string"}}}`, `["l"]`, `{"l":[["ab","C"]]}`, `{"l":["A b","c"]}`, 0},
		{"list order", `{"l":{"type":"array","items":{"type":"string"}}}`, `["l"]`, `{"l":[["ab","c"]]}`, `{"l":["c","ab"]}`, WrongValue},
		// BFCL's item type check falls back on the accepted lists' own type
		// (list), so items are in effect only compared by value.
		{"list item type", `{"l":{"type":"array","items":{"type":"integer"}}}`, `["l"]`, `{"l":[[1,2]]}`, `{"l":[1,"2"]}`, WrongValue},
		{"list int for float item", `{"l":{"type":"array","items":{"type":"float"}}}`, `["l"]`, `{"l":[[1.0,2.5]]}`, `{"l":[1,2.5]}`, 0},
		{"list not a list", `{"l":{"type":"array","items":{"type":"float"}}}`, `["l"]`, `{"l":[[1.0,2.5]]}`, `{"l":1.0}`, WrongType},
		{"empty list for \"\"", `{"l":{"type":"array","items":{"type":"string"}}}`, `[]`, `{"l":["",["a"]]}`, `{"l":[]}`, 0},
		{"tuple", `{"t":{"type":"tuple","items":{"type":"float"}}}`, `["t"]`, `{"t":[[1.5,2.5]]}`, `{"t":[1.5,2.5]}`, 0},
		{"nested list", `{"l":{"type":"array","items":{"type":"array"}}}`, `["l"]`, `{"l":[[[1,2],[3]]]}`, `{"l":[[1,2],[3]]}`, 0},
		// dicts
		{"dict", `{"d":{"type":"dict"}}`, `["d"]`, `{"d":[{"a":["x"],"b":[1],"c":["",2]}]}`, `{"d":{"a":"X","b":1}}`, 0},
		{"dict key missing", `{"d":{"type":"dict"}}`, `["d"]`, `{"d":[{"a":["x"],"b":[1]}]}`, `{"d":{"a":"x"}}`, WrongValue},
		{"dict extra key", `{"d":{"type":"dict"}}`, `["d"]`, `{"d":[{"a":["x"]}]}`, `{"d":{"a":"x","z":1}}`, WrongValue},
		{"dict second alternative", `{"d":{"type":"dict"}}`, `["d"]`, `{"d":[{"a":["x"]},{"b":["y"]}]}`, `{"d":{"b":"y"}}`, 0},
		{"list of dicts", `{"l":{"type":"array","items":{"type":"dict"}}}`, `["l"]`, `{"l":[[{"f":["age"]},{"f":["job"]}]]}`, `{"l":[{"f":"Age"},{"f":"job"}]}`, 0},
		{"list of dicts, length", `{"l":{"type":"array","items":{"type":"dict"}}}`, `["l"]`, `{"l":[[{"f":["age"]},{"f":["job"]}]]}`, `{"l":[{"f":"age"}]}`, WrongValue},
		{"list of dicts, order", `{"l":{"type":"array","items":{"type":"dict"}}}`, `["l"]`, `{"l":[[{"f":["age"]},{"f":["job"]}]]}`, `{"l":[{"f":"job"},{"f":"age"}]}`, WrongValue},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ref := matchRef(t, tt.props, tt.req, tt.gt)
			args, err := ParseJSON(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			call, ok := CallFromJSON(objVal(member("name", strVal("f")), member("arguments", args)))
			if !ok {
				t.Fatal("CallFromJSON refused the call")
			}
			m, err := ref.Match(call)
			if err != nil {
				t.Fatal(err)
			}
			switch {
			case tt.fault == 0 && m != nil:
				t.Errorf("rejected: %s", m.Reason)
			case tt.fault != 0 && m == nil:
				t.Errorf("accepted, want fault %d", tt.fault)
			case tt.fault != 0 && m.Fault != tt.fault:
				t.Errorf("fault %d (%s), want %d", m.Fault, m.Reason, tt.fault)
			}
		})
	}
}

func TestReferenceCall(t *testing.T) {
	tests := []struct {
		name           string
		props, req, gt string
		want           string
	}{
		{"first values, \"\" left out", `{"a":{"type":"integer"},"b":{"type":"string"},"c":{"type":"string"}}`, `["a"]`,
			`{"a":[1,2],"b":["","x"],"c":["y",""]}`, `{"name":"f","arguments":{"a":1,"c":"y"}}`},
		{"required with \"\" first", `{"a":{"type":"float"}}`, `["a"]`, `{"a":["",25.0]}`, `{"name":"f","arguments":{"a":25.0}}`},
		{"dict expanded", `{"d":{"type":"dict"}}`, `["d"]`, `{"d":[{"k":["v","w"],"o":["",1]}]}`, `{"name":"f","arguments":{"d":{"k":"v"}}}`},
		{"list of dicts expanded", `{"l":{"type":"array","items":{"type":"dict"}}}`, `["l"]`,
			`{"l":[[{"f":["age"]},{"f":["job","work"]}]]}`, `{"name":"f","arguments":{"l":[{"f":"age"},{"f":"job"}]}}`},
		{"escaping", `{"s":{"type":"string"}}`, `["s"]`, `{"s":["a \"q\" <b>\n"]}`, `{"name":"f","arguments":{"s":"a \"q\" <b>\n"}}`},
	}
	for _, tt := range tests {
		ref := matchRef(t, tt.props, tt.req, tt.gt)
		if got := ref.ReferenceCall(); got != tt.want {
			t.Errorf("%s: reference call %s, want %s", tt.name, got, tt.want)
		}
		if !strings.HasPrefix(ReferenceBlock(ref), "Reference call: {") {
			t.Errorf("%s: block %q", tt.name, ReferenceBlock(ref))
		}
	}
}

func TestNewRefErrors(t *testing.T) {
	f := Function{Name: "f", Params: []Param{{Name: "x", Type: "integer"}}}
	if _, err := NewRef([]Function{f}, Answer{Function: "g"}); err == nil {
		t.Error("a ground truth naming no offered function was accepted")
	}
	bad := Function{Name: "f", Params: []Param{{Name: "x", Type: "complex"}}}
	if _, err := NewRef([]Function{bad}, Answer{Function: "f"}); err == nil {
		t.Error("an unknown schema type was accepted")
	}
	if _, err := NewRef([]Function{f}, Answer{Function: "f", Params: []Accepted{{Name: "x"}}}); err == nil {
		t.Error("a parameter accepting nothing was accepted")
	}
	for _, rec := range [][2]string{
		{`{"id":"a"`, `{"id":"a"}`},
		{`{"id":"a","function":[]}`, `{"id":"b","ground_truth":[]}`},
		{`{"id":"a","function":[{"name":"f"}]}`, `{"id":"a","ground_truth":[{"f":{}},{"f":{}}]}`},
		{`{"id":"a","function":[{"name":"f","parameters":{"properties":{"x":{}}}}]}`, `{"id":"a","ground_truth":[{"f":{}}]}`},
		{`{"id":"a","function":[{"name":"f"}]}`, `{"id":"a","ground_truth":[{"f":{"x":1}}]}`},
	} {
		if _, err := ParseBFCL(rec[0], rec[1]); err == nil {
			t.Errorf("ParseBFCL(%s, %s) gave no error", rec[0], rec[1])
		}
	}
}
