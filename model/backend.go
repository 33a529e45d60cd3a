package model

import (
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/gomlx/compute"
)

// BackendEnv is the environment variable that names the compute backend
// New and FromWeights build on when no BackendOption is given: "go" (the
// default), "xla" or "xla:PLUGIN". `credo --backend` sets it for its own
// process, so that every model a command builds, however deep, runs on
// the backend chosen, and child processes inherit the choice.
const BackendEnv = "CREDO_BACKEND"

// Backend is a backend choice, as --backend and CREDO_BACKEND spell it:
// "go", or "xla" with an optional PJRT plugin after a colon ("xla:cpu",
// "xla:/abs/path/pjrt_c_api_cpu_plugin.so", "xla:cuda,tf32=false": GoMLX's
// own plugin name, path and options syntax).
type Backend struct {
	Name   string // "go" or "xla"
	Plugin string // xla only: a plugin name or absolute path, then GoMLX's ",key=value" options; empty: the first plugin found
}

// ParseBackend reads a backend choice; "" is the Go backend.
func ParseBackend(s string) (Backend, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Backend{Name: "go"}, nil
	}
	name, plugin, _ := strings.Cut(s, ":")
	switch name {
	case "go":
		if plugin != "" {
			return Backend{}, fmt.Errorf("backend %q: the go backend takes no plugin", s)
		}
		return Backend{Name: "go"}, nil
	case "xla":
		return Backend{Name: "xla", Plugin: plugin}, nil
	}
	return Backend{}, fmt.Errorf("backend %q: unknown backend %q (known: go, xla[:PLUGIN])", s, name)
}

// String is the choice as ParseBackend reads it.
func (b Backend) String() string {
	if b.Plugin == "" {
		return b.Name
	}
	return b.Name + ":" + b.Plugin
}

// EnvBackend is the choice CREDO_BACKEND names (the Go backend when it is
// unset or empty).
func EnvBackend() (Backend, error) {
	b, err := ParseBackend(os.Getenv(BackendEnv))
	if err != nil {
		return Backend{}, fmt.Errorf("$%s: %w", BackendEnv, err)
	}
	return b, nil
}

// CompiledBackends lists the backends built into this binary, sorted:
// "go" always, "xla" with the xla build tag.
func CompiledBackends() []string {
	var names []string
	for _, n := range compute.List() {
		if n == "go" || n == "xla" { // go-xla also registers aliases (stablehlo, hlo, ...)
			names = append(names, n)
		}
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// BackendInfo is what a run records about the backend it ran on.
type BackendInfo struct {
	Name          string `json:"name"`                     // "go" or "xla"
	Config        string `json:"config,omitempty"`         // the choice as given (Backend.String)
	Plugin        string `json:"plugin,omitempty"`         // xla: the PJRT plugin's absolute path
	PluginVersion string `json:"plugin_version,omitempty"` // xla: the plugin's PJRT C API version and its platform's version
	Platform      string `json:"platform,omitempty"`       // xla: the PJRT platform ("cpu", "cuda")
}

// xlaOpener opens an XLA backend for a plugin config; the xla build tag's
// file (backend_xla.go) sets it at init, so that without the tag nothing
// of XLA (or cgo) is linked.
var xlaOpener func(plugin string) (compute.Backend, BackendInfo, error)

// ErrNotCompiled is returned for a backend the binary was built without.
var ErrNotCompiled = errors.New("backend not compiled in")

// Open starts the backend b names. The Go backend is a fresh one per call
// (as before this choice existed: each model its own worker pool); an XLA
// backend is one PJRT client per plugin per process, shared by every
// model, since a client owns the device's memory and its thread pools.
func (b Backend) Open() (compute.Backend, BackendInfo, error) {
	switch b.Name {
	case "", "go":
		be, err := compute.NewWithConfig("go")
		if err != nil {
			return nil, BackendInfo{}, fmt.Errorf("start the go backend: %w", err)
		}
		return be, BackendInfo{Name: "go", Config: "go"}, nil
	case "xla":
		if xlaOpener == nil {
			return nil, BackendInfo{}, fmt.Errorf("backend %q: %w: this binary has %s; build with CGO_ENABLED=1 go build -tags xla (make test-xla does)",
				b, ErrNotCompiled, strings.Join(CompiledBackends(), ", "))
		}
		be, info, err := xlaOpener(b.Plugin)
		if err != nil {
			return nil, BackendInfo{}, fmt.Errorf("backend %q: %w", b, err)
		}
		info.Config = b.String()
		return be, info, nil
	}
	return nil, BackendInfo{}, fmt.Errorf("backend %q: unknown backend (known: go, xla[:PLUGIN])", b)
}

// Option changes how New and FromWeights build a model.
type Option func(*options)

type options struct {
	backend *Backend
}

// OnBackend builds the model on backend b instead of the one CREDO_BACKEND
// names.
func OnBackend(b Backend) Option {
	return func(o *options) { o.backend = &b }
}

// openFor opens the backend opts name, else CREDO_BACKEND's.
func openFor(opts []Option) (compute.Backend, BackendInfo, error) {
	var o options
	for _, f := range opts {
		f(&o)
	}
	b := Backend{Name: "go"}
	if o.backend != nil {
		b = *o.backend
	} else {
		var err error
		if b, err = EnvBackend(); err != nil {
			return nil, BackendInfo{}, err
		}
	}
	return b.Open()
}
