package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/credo-rl/credo/cmd/credo/internal/cli"
	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/run"
)

// backendFlag adds --backend to a command that builds a model. Every model
// the command builds, however deep in the libraries, starts its backend
// from CREDO_BACKEND (model.BackendEnv), so the flag sets that variable for
// the process (and GoMLX's GOMLX_BACKEND, with automatic plugin downloads
// off) rather than threading an option through each library's config.
func backendFlag(fs *cli.Flags) {
	if fs.Lookup("backend") != nil { // a command's flag groups may each add it
		return
	}
	def := os.Getenv(model.BackendEnv)
	if def == "" {
		def = "go"
	}
	fs.Var(&backendValue{s: def}, "backend", "compute backend: go (pure Go, the default), or xla[:PLUGIN] with PLUGIN a PJRT plugin's absolute path or name "+
		"(a binary built with -tags xla: "+strings.Join(model.CompiledBackends(), ", ")+" in this one); default from $"+model.BackendEnv)
}

// backendValue is --backend's value: Set checks the choice and makes it
// the process's.
type backendValue struct{ s string }

func (v *backendValue) String() string {
	if v == nil {
		return ""
	}
	return v.s
}

func (v *backendValue) Set(s string) error {
	b, err := model.ParseBackend(s)
	if err != nil {
		return err
	}
	if !slices.Contains(model.CompiledBackends(), b.Name) {
		return fmt.Errorf("backend %s is not compiled into this binary (it has %s): build with CGO_ENABLED=1 go build -tags xla ./cmd/credo",
			b.Name, strings.Join(model.CompiledBackends(), ", "))
	}
	v.s = b.String()
	return useBackend(b)
}

// useBackend makes b the backend of every model this process builds.
func useBackend(b model.Backend) error {
	for k, val := range map[string]string{
		model.BackendEnv:        b.String(),
		"GOMLX_BACKEND":         b.String(), // the same syntax: anything that asks GoMLX for its default gets b too
		"GOMLX_NO_AUTO_INSTALL": "1",        // never download a plugin
	} {
		if err := os.Setenv(k, val); err != nil {
			return fmt.Errorf("set $%s: %w", k, err)
		}
	}
	return nil
}

// backendFile is what a run or warm-up folder records of the binary and
// the backend it ran on.
const backendFile = "backend.json"

// backendRecord is backend.json.
type backendRecord struct {
	Credo   string            `json:"credo"`   // credo --version
	Backend model.BackendInfo `json:"backend"` // the backend, and for XLA its plugin's path and version
}

// recordBackend writes backend.json into dir for the backend m runs on.
func recordBackend(dir string, m *model.Model) error {
	if m == nil {
		return nil
	}
	return run.WriteJSON(filepath.Join(dir, backendFile), backendRecord{Credo: version(), Backend: m.BackendInfo()})
}

// readBackend reads dir's backend.json (tests, and a reader's check).
func readBackend(dir string) (backendRecord, error) {
	var r backendRecord
	b, err := os.ReadFile(filepath.Join(dir, backendFile))
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return r, fmt.Errorf("%s: %w", filepath.Join(dir, backendFile), err)
	}
	return r, nil
}
