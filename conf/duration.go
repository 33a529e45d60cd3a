package conf

import (
	"encoding/json"
	"fmt"
	"time"

	"gopkg.in/yaml.v3"
)

// Duration is a time.Duration written as "5s" in JSON and YAML.
type Duration time.Duration

// MarshalJSON writes d as a string such as "5s".
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads a string such as "5s".
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration: want a string such as \"5s\": %w", err)
	}
	v, err := time.ParseDuration(s)
	*d = Duration(v)
	return err
}

// UnmarshalYAML reads a scalar such as 5s.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	v, err := time.ParseDuration(n.Value)
	*d = Duration(v)
	return err
}

// MarshalYAML writes d as a string such as "5s".
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

// String makes Duration a flag.Value.
func (d *Duration) String() string { return time.Duration(*d).String() }

// Set parses a flag value such as "5s".
func (d *Duration) Set(s string) error {
	v, err := time.ParseDuration(s)
	*d = Duration(v)
	return err
}
