package ckpt

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/credo-rl/credo/internal/settings"
	"github.com/credo-rl/credo/run"
)

// LoadConfig reads the configuration the run folder dir was started with:
// its config.json, through load (which decodes it over the defaults for
// settings it predates). A folder that does not exist, is a file or holds
// no run is a configuration error saying so.
func LoadConfig(dir string, load func(path string) error) error {
	st, err := os.Stat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return settings.Errorf("resume: run directory %s does not exist (start a new run without --resume)", dir)
	}
	if err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	if !st.IsDir() {
		return settings.Errorf("resume: %s is a file, not a run directory", dir)
	}
	path := filepath.Join(dir, run.ConfigFile)
	if _, err := os.Stat(path); errors.Is(err, os.ErrNotExist) {
		return settings.Errorf("resume: %s holds no run (it has no config.json)", dir)
	}
	if err := load(path); err != nil {
		return fmt.Errorf("resume: %w", err)
	}
	return nil
}
