//go:build xla

package model_test

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credo-rl/credo/model"
)

// xlaPlugin is the CPU plugin's path from CREDO_BACKEND=xla:PATH (make
// test-xla sets it); tests that need a plugin skip without one.
func xlaPlugin(t *testing.T) string {
	t.Helper()
	b, err := model.EnvBackend()
	if err != nil || b.Name != "xla" || !filepath.IsAbs(strings.Split(b.Plugin, ",")[0]) {
		t.Skipf("no XLA plugin: set %s=xla:/abs/path/pjrt_c_api_cpu_plugin.so (make test-xla does, from scripts/xla-plugin.sh)", model.BackendEnv)
	}
	return strings.Split(b.Plugin, ",")[0]
}

func TestXLAMissingPlugin(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		plugin string
		want   []string
	}{
		{filepath.Join(dir, "none.so"), []string{filepath.Join(dir, "none.so"), "no such file"}},
		{dir, []string{dir, "is a directory"}},
		{"nosuchplugin", []string{`no PJRT plugin "nosuchplugin"`, dir, "PJRT_PLUGIN_LIBRARY_PATH"}},
		{"relative/p.so", []string{"absolute path"}},
	}
	t.Setenv("PJRT_PLUGIN_LIBRARY_PATH", dir) // read by the error, not by go-xla (which read it at init)
	for _, c := range cases {
		_, _, err := model.Backend{Name: "xla", Plugin: c.plugin}.Open()
		if err == nil {
			t.Errorf("plugin %q: no error", c.plugin)
			continue
		}
		for _, w := range c.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("plugin %q: error %q does not say %q", c.plugin, err, w)
			}
		}
	}
	// A file that is no plugin fails in dlopen, with the path.
	bad := filepath.Join(dir, "pjrt_c_api_bad_plugin.so")
	if err := os.WriteFile(bad, []byte("not ELF"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := (model.Backend{Name: "xla", Plugin: bad}).Open(); err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("a file that is no plugin: %v, want an error naming it", err)
	}
}

// TestXLAMatchesGo checks that the XLA backend computes what the Go one
// does: a tiny model's log-probabilities, to float32 rounding.
func TestXLAMatchesGo(t *testing.T) {
	plugin := xlaPlugin(t)
	c := model.Tiny(16)
	mx, err := model.New(c, 7, model.OnBackend(model.Backend{Name: "xla", Plugin: plugin}))
	if err != nil {
		t.Fatal(err)
	}
	info := mx.BackendInfo()
	if info.Name != "xla" || info.Plugin != plugin || !strings.Contains(info.PluginVersion, "PJRT C API") || info.Platform != "cpu" {
		t.Errorf("BackendInfo = %+v, want xla on %s (cpu) with its version", info, plugin)
	}
	if mx.Backend().Name() != "xla" {
		t.Fatalf("backend %q, want xla", mx.Backend().Name())
	}
	mg, err := model.New(c, 7, model.OnBackend(model.Backend{Name: "go"}))
	if err != nil {
		t.Fatal(err)
	}
	seqs := [][]int32{{1, 5, 9, 2, 7, 3}, {4, 4, 8}}
	gx, err := mx.LogProbs(context.Background(), seqs)
	if err != nil {
		t.Fatal(err)
	}
	gg, err := mg.LogProbs(context.Background(), seqs)
	if err != nil {
		t.Fatal(err)
	}
	worst := 0.0
	for i := range gg {
		for j := range gg[i] {
			worst = max(worst, math.Abs(float64(gx[i][j]-gg[i][j])))
		}
	}
	if worst > 1e-4 {
		t.Errorf("log-probs differ by up to %g between xla and go", worst)
	}
	t.Logf("xla against go: log-probs within %.2g", worst)
}
