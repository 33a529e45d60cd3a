package settings

import (
	"fmt"
	"math"
	"reflect"
	"strings"
)

// Problem is one bad setting, named by its key in config.json (dotted for
// nested settings: optimizer.weight_decay, credit.beta). Commands name it
// by its flag instead.
type Problem struct {
	Key string
	Msg string
}

func (p Problem) Error() string { return p.Key + ": " + p.Msg }

// Problems is every bad setting of a configuration.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.Error()
	}
	return strings.Join(lines, "\n")
}

// Add appends a Problem for key.
func (ps *Problems) Add(key, format string, args ...any) {
	*ps = append(*ps, Problem{key, fmt.Sprintf(format, args...)})
}

// Err is ps as an error, nil when there are none.
func (ps Problems) Err() error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// Prefixed is ps with every key under prefix (a nested configuration:
// warmup.lr).
func (ps Problems) Prefixed(prefix string) Problems {
	out := make(Problems, len(ps))
	for i, p := range ps {
		out[i] = Problem{prefix + p.Key, p.Msg}
	}
	return out
}

// Error is a configuration a run cannot start with: a bad setting, an
// unknown name, a resume that would change what the run is.
type Error struct{ Err error }

func (e *Error) Error() string { return e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Errorf is an *Error with a formatted message.
func Errorf(format string, args ...any) error {
	return &Error{fmt.Errorf(format, args...)}
}

// NonFinite lists every float setting of v (a struct, walked by its json
// keys) that is NaN or infinite: a YAML file can hold .nan and .inf, and
// no setting means anything at either.
func NonFinite(v any, prefix string) Problems {
	var ps Problems
	var walk func(rv reflect.Value, prefix string)
	walk = func(rv reflect.Value, prefix string) {
		switch rv.Kind() {
		case reflect.Float64, reflect.Float32:
			if x := rv.Float(); math.IsNaN(x) || math.IsInf(x, 0) {
				ps = append(ps, Problem{prefix, fmt.Sprintf("must be a finite number, got %v", x)})
			}
		case reflect.Map:
			for _, k := range rv.MapKeys() {
				walk(rv.MapIndex(k), prefix+"."+fmt.Sprint(k.Interface()))
			}
		case reflect.Struct:
			for i := range rv.NumField() {
				f := rv.Type().Field(i)
				if !f.IsExported() {
					continue
				}
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				switch {
				case name == "-":
					continue
				case f.Anonymous && name == "":
					walk(rv.Field(i), prefix)
					continue
				case name == "":
					name = f.Name
				}
				if prefix != "" {
					name = prefix + "." + name
				}
				walk(rv.Field(i), name)
			}
		}
	}
	walk(reflect.ValueOf(v), prefix)
	return ps
}
