package service

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"

	"github.com/credo-rl/credo/credit"
)

// variantDocs reads credit.Variants' lines, "+name (methods: what it
// does)", into name → what it does.
func variantDocs() map[string]string {
	out := map[string]string{}
	for _, line := range credit.Variants() {
		name, rest, ok := strings.Cut(strings.TrimPrefix(line, "+"), " ")
		if !ok {
			out[name] = ""
			continue
		}
		rest = strings.TrimSuffix(strings.TrimPrefix(rest, "("), ")")
		if _, doc, ok := strings.Cut(rest, ": "); ok {
			rest = doc
		}
		out[name] = rest
	}
	return out
}

// methods answers GET /v1/methods (docs/SERVICE.md §3). Which variants
// apply to a method is what credit.New accepts.
func (s *Server) methods(context.Context, []byte) ([]byte, error) {
	type requires struct {
		Replay     bool `json:"replay"`
		InfoBlocks bool `json:"info_blocks"`
		PRM        bool `json:"prm"`
	}
	type method struct {
		Name     string   `json:"name"`
		Requires requires `json:"requires"`
		Variants []string `json:"variants"`
	}
	docs := variantDocs()
	out := struct {
		Methods  []method          `json:"methods"`
		Variants map[string]string `json:"variants"`
		SAW      string            `json:"saw"`
		Config   map[string]any    `json:"config"`
		PRM      bool              `json:"prm"`
	}{Variants: docs, SAW: "saw+<name> composes SAW's reweighting with any method and its variants",
		Config: everyKey(credit.DefaultConfig()), PRM: s.o.PRM != nil}
	for _, name := range credit.Names() {
		m, err := credit.New(name, credit.DefaultConfig())
		if err != nil {
			return nil, err
		}
		r := credit.RequirementsOf(m)
		applies := []string{}
		for _, v := range sortedKeys(docs) {
			if _, err := credit.New(name+"+"+v, credit.DefaultConfig()); err == nil {
				applies = append(applies, v)
			}
		}
		out.Methods = append(out.Methods, method{name, requires{r.Replay, r.InfoBlocks, r.PRM}, applies})
	}
	return json.Marshal(out)
}

// everyKey is c as JSON with every key, those that config.json leaves out
// when empty (omitempty: scale_to, neutral, …) written as their zero
// value, so a client sees every key a request's "config" may override.
func everyKey(c credit.Config) map[string]any {
	var out map[string]any
	b, _ := json.Marshal(c) // a plain struct of numbers, strings and maps
	json.Unmarshal(b, &out)
	for _, f := range reflect.VisibleFields(reflect.TypeOf(c)) { // the options of each method's struct
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous || name == "" || name == "-" || !strings.Contains(opts, "omitempty") {
			continue
		}
		if _, ok := out[name]; !ok {
			zero := reflect.Zero(f.Type)
			if zero.Kind() == reflect.Map {
				zero = reflect.MakeMap(zero.Type()) // {} rather than null
			}
			out[name] = zero.Interface()
		}
	}
	return out
}
