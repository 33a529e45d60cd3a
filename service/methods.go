package service

import (
	"context"
	"encoding/json"
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
	docs := variantDocs()
	variants := sortedKeys(docs)
	var w writer
	w.raw(`{"methods":[`)
	for i, name := range credit.Names() {
		m, err := credit.New(name, credit.DefaultConfig())
		if err != nil {
			return nil, err
		}
		req := credit.RequirementsOf(m)
		var applies []string
		for _, v := range variants {
			if _, err := credit.New(name+"+"+v, credit.DefaultConfig()); err == nil {
				applies = append(applies, v)
			}
		}
		if i > 0 {
			w.byte(',')
		}
		w.raw("{")
		w.key("name", true)
		w.str(name)
		w.raw(`,"requires":{`)
		w.key("replay", true)
		w.bool(req.Replay)
		w.key("info_blocks", false)
		w.bool(req.InfoBlocks)
		w.key("prm", false)
		w.bool(req.PRM)
		w.raw("}")
		w.key("variants", false)
		w.strs(applies)
		w.raw("}")
	}
	w.raw(`],"variants":{`)
	for i, v := range variants {
		w.key(v, i == 0)
		w.str(docs[v])
	}
	w.raw(`},"saw":"saw+<name> composes SAW's reweighting with any method and its variants","config":`)
	c, err := json.Marshal(credit.DefaultConfig())
	if err != nil {
		return nil, err
	}
	w.b = append(w.b, c...)
	w.key("prm", false)
	w.bool(s.o.PRM != nil)
	w.raw("}")
	return w.b, nil
}
