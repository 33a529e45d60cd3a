package conf

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/credo-rl/credo/internal/boundedread"
)

// Load fills v from a JSON or YAML file (by extension; "-" reads either
// from standard input), a regular file of at most boundedread.Settings
// bytes; keys not in the file keep v's values, and unknown keys are an
// error.
func Load(path string, v any) error {
	data, err := boundedread.ReadFile(path, boundedread.Settings)
	if err != nil {
		return fmt.Errorf("config file: %w", err)
	}
	return Decode(path, data, v)
}

// Decode decodes a config file's bytes (YAML when path ends in .yaml or
// .yml or is standard input, JSON otherwise) over v, refusing unknown
// keys.
func Decode(path string, data []byte, v any) error {
	switch ext := strings.ToLower(filepath.Ext(path)); {
	case ext == ".yaml", ext == ".yml", path == boundedread.Stdin: // YAML reads JSON too
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(v); err != nil {
			return fmt.Errorf("config file %s: %w", path, err)
		}
	default:
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(v); err != nil {
			return fmt.Errorf("config file %s: %w", path, err)
		}
	}
	return nil
}
