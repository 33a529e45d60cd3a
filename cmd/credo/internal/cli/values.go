package cli

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
)

// A flag.Value here may say its kind for --help (kind() string), where the
// flag package would say "value".

// finiteFloat is a float flag that refuses NaN and infinities: no setting
// means anything at either, and they would reach training unnoticed.
type finiteFloat struct{ p *float64 }

func (v *finiteFloat) String() string {
	if v.p == nil {
		return ""
	}
	return strconv.FormatFloat(*v.p, 'g', -1, 64)
}

func (v *finiteFloat) kind() string { return "float" }

func (v *finiteFloat) Set(s string) error {
	x, err := parseFinite(s)
	if err != nil {
		return err
	}
	*v.p = x
	return nil
}

func parseFinite(s string) (float64, error) {
	x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, errors.New("not a number")
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, errors.New("must be a finite number")
	}
	return x, nil
}

// listFlag collects a repeatable string flag. Given on the command line,
// it replaces the list it starts with (a config file's, a saved run's).
type listFlag struct {
	v   *[]string
	set bool
}

func (l *listFlag) String() string {
	if l.v == nil {
		return ""
	}
	return strings.Join(*l.v, " ")
}

func (l *listFlag) Set(s string) error {
	if !l.set {
		*l.v, l.set = nil, true
	}
	*l.v = append(*l.v, s)
	return nil
}

func (l *listFlag) kind() string { return "string" }

// weightsFlag collects name=weight pairs.
type weightsFlag struct{ m *map[string]float64 }

func (w *weightsFlag) String() string {
	if w.m == nil || *w.m == nil {
		return ""
	}
	var parts []string
	for k, v := range *w.m {
		parts = append(parts, fmt.Sprintf("%s=%g", k, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func (w *weightsFlag) kind() string { return "name=value" }

func (w *weightsFlag) Set(s string) error {
	name, val, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("want name=weight, got %q", s)
	}
	x, err := parseFinite(val)
	if err != nil {
		return fmt.Errorf("weight of %s: %w", name, err)
	}
	if *w.m == nil {
		*w.m = map[string]float64{}
	}
	(*w.m)[name] = x
	return nil
}

// kinded names the type of a flag.Value in help.
type kinded struct {
	flag.Value
	k string
}

func (k kinded) kind() string { return k.k }

// textValue is a flag over a named string type.
type textValue struct{ v reflect.Value }

func (t textValue) String() string {
	if !t.v.IsValid() {
		return ""
	}
	return t.v.String()
}
func (t textValue) Set(s string) error { t.v.SetString(s); return nil }
func (t textValue) kind() string       { return "string" }
