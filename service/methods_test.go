package service

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/credo-rl/credo/credit"
)

// TestMethodsListEveryConfigKey: GET /v1/methods's "config" holds every key
// a request may override, those config.json leaves out when empty
// (scale_to, neutral, …) included, at their defaults (the Python client
// could not discover scale_to).
func TestMethodsListEveryConfigKey(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	body, err := s.methods(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var out struct{ Config map[string]any }
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	for _, f := range reflect.VisibleFields(reflect.TypeOf(credit.Config{})) {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.Anonymous {
			continue // a method's options struct: its fields are listed
		}
		if _, ok := out.Config[name]; !ok {
			t.Errorf("config lacks %q", name)
		}
	}
	if out.Config["scale_to"] != "" || out.Config["beta"] != credit.DefaultConfig().Beta {
		t.Errorf("defaults: scale_to %v, beta %v", out.Config["scale_to"], out.Config["beta"])
	}
	// What it lists decodes back into the defaults.
	var back credit.Config
	b, _ := json.Marshal(out.Config)
	if err := json.Unmarshal(b, &back); err != nil || !reflect.DeepEqual(back, withEmptyMaps(credit.DefaultConfig())) {
		t.Errorf("config does not decode to the defaults: %v\n%+v", err, back)
	}
}

// withEmptyMaps is c with nil maps made empty, as the listing writes them.
func withEmptyMaps(c credit.Config) credit.Config {
	if c.SAWOffsets == nil {
		c.SAWOffsets = map[string]float64{}
	}
	return c
}
