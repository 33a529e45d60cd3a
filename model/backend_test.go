package model_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/model"
)

func TestParseBackend(t *testing.T) {
	cases := []struct {
		in      string
		want    model.Backend
		wantErr string
	}{
		{in: "", want: model.Backend{Name: "go"}},
		{in: "go", want: model.Backend{Name: "go"}},
		{in: " go ", want: model.Backend{Name: "go"}},
		{in: "xla", want: model.Backend{Name: "xla"}},
		{in: "xla:cpu", want: model.Backend{Name: "xla", Plugin: "cpu"}},
		{in: "xla:/opt/p/pjrt_c_api_cpu_plugin.so", want: model.Backend{Name: "xla", Plugin: "/opt/p/pjrt_c_api_cpu_plugin.so"}},
		{in: "xla:cuda,tf32=false", want: model.Backend{Name: "xla", Plugin: "cuda,tf32=false"}},
		{in: "go:cpu", wantErr: "takes no plugin"},
		{in: "tpu", wantErr: `unknown backend "tpu" (known: go, xla[:PLUGIN])`},
		{in: ":cpu", wantErr: "unknown backend"},
	}
	for _, c := range cases {
		got, err := model.ParseBackend(c.in)
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("ParseBackend(%q) = %v, %v; want an error with %q", c.in, got, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("ParseBackend(%q) = %+v, %v; want %+v", c.in, got, err, c.want)
			continue
		}
		if again, err := model.ParseBackend(got.String()); err != nil || again != got {
			t.Errorf("ParseBackend(%q.String() = %q) = %+v, %v", c.in, got.String(), again, err)
		}
	}
}

func TestEnvBackend(t *testing.T) {
	t.Setenv(model.BackendEnv, "")
	if b, err := model.EnvBackend(); err != nil || b.Name != "go" {
		t.Errorf("unset: %+v, %v; want go", b, err)
	}
	t.Setenv(model.BackendEnv, "cuda")
	if _, err := model.EnvBackend(); err == nil || !strings.Contains(err.Error(), "$"+model.BackendEnv) {
		t.Errorf("bad value: error %v, want one naming $%s", err, model.BackendEnv)
	}
	// A model built under a bad CREDO_BACKEND fails, naming it...
	if _, err := model.New(model.Tiny(16), 1); err == nil || !strings.Contains(err.Error(), model.BackendEnv) {
		t.Errorf("New under a bad %s: error %v", model.BackendEnv, err)
	}
	// ...unless an option names the backend.
	m, err := model.New(model.Tiny(16), 1, model.OnBackend(model.Backend{Name: "go"}))
	if err != nil {
		t.Fatal(err)
	}
	if got := m.BackendInfo(); got.Name != "go" || got.Config != "go" || got.Plugin != "" {
		t.Errorf("BackendInfo = %+v, want the go backend", got)
	}
	if n := m.Backend().Name(); !strings.Contains(strings.ToLower(n), "go") {
		t.Errorf("Backend().Name() = %q, want the go backend's", n)
	}
}

func TestCompiledBackends(t *testing.T) {
	got := model.CompiledBackends()
	if !slices.Contains(got, "go") || !slices.IsSorted(got) {
		t.Fatalf("CompiledBackends = %v, want a sorted list with go", got)
	}
	if slices.Contains(got, "xla") {
		return // the xla build's tests (backend_xla_test.go) cover opening it
	}
	_, _, err := model.Backend{Name: "xla", Plugin: "cpu"}.Open()
	if !errors.Is(err, model.ErrNotCompiled) || !strings.Contains(err.Error(), "-tags xla") {
		t.Errorf("Open(xla) without the xla tag: %v, want ErrNotCompiled saying how to build it", err)
	}
}
