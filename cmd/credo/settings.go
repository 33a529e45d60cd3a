package main

import (
	"flag"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode"

	"github.com/credo-rl/credo/rl"
)

// setting is a configuration setting that has a flag: its key in the
// configuration (JSON names, dotted for nested structs: credit.beta), the
// flag's name and its help. The flag's type and default are the field's,
// found by the key, so the tables below are the one place a setting's
// flag, config-file key and help meet; a key that names no field panics
// (TestSettingTables builds every table).
type setting struct {
	key, flag, usage string
}

// noFlag lists, by key, settings of a config struct that deliberately
// have no flag, each with the reason; a key covers every setting under it.
// TestEverySettingHasAFlag fails for a setting with neither a flag nor an
// entry here.
type noFlag map[string]string

// bind defines the flag of each setting over the struct cfg points to and
// records prefix+key as the key the flag sets, so a problem with the
// setting is reported by its flag.
func (f *flags) bind(cfg any, prefix string, ss ...setting) {
	for _, s := range ss {
		f.bindField(settingField(cfg, s.key), s.flag, s.usage)
		f.key(s.flag, prefix+s.key)
	}
}

// bindField defines a flag of the field's type: floats refuse NaN and
// ±Inf, a map of floats takes name=value pairs and a list of strings
// repeats.
func (f *flags) bindField(v reflect.Value, name, usage string) {
	switch p := v.Addr().Interface().(type) {
	case *rl.Duration:
		f.Var(kinded{p, "duration"}, name, usage)
	case flag.Value:
		f.Var(p, name, usage)
	case *string:
		f.StringVar(p, name, *p, usage)
	case *int:
		f.IntVar(p, name, *p, usage)
	case *uint64:
		f.Uint64Var(p, name, *p, usage)
	case *bool:
		f.BoolVar(p, name, *p, usage)
	case *float64:
		f.Var(&finiteFloat{p}, name, usage)
	case *time.Duration:
		f.DurationVar(p, name, *p, usage)
	case *map[string]float64:
		f.Var(&weightsFlag{p}, name, usage)
	case *[]string:
		f.Var(&listFlag{v: p}, name, usage)
	default:
		if v.Kind() != reflect.String {
			panic(fmt.Sprintf("flag --%s: no flag type for a setting of type %s", name, v.Type()))
		}
		f.Var(textValue{v}, name, usage) // credit.ScaleMode and other named strings
	}
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

// settingField is the field key names inside the struct cfg points to.
func settingField(cfg any, key string) reflect.Value {
	v := reflect.ValueOf(cfg)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		panic(fmt.Sprintf("setting %s: %T is not a pointer to a config struct", key, cfg))
	}
	v = v.Elem()
	for _, part := range strings.Split(key, ".") {
		f, ok := fieldByKey(v, part)
		if !ok {
			panic(fmt.Sprintf("setting %s: %s has no field keyed %q", key, v.Type(), part))
		}
		v = f
	}
	return v
}

// fieldByKey finds the field of struct v whose key is name, looking into
// embedded structs whose fields are their parent's.
func fieldByKey(v reflect.Value, name string) (reflect.Value, bool) {
	for i := range v.NumField() {
		key, inline := fieldKey(v.Type().Field(i))
		switch {
		case inline:
			if f, ok := fieldByKey(v.Field(i), name); ok {
				return f, true
			}
		case key != "" && key == name:
			return v.Field(i), true
		}
	}
	return reflect.Value{}, false
}

// fieldKey is a struct field's key: its JSON name, as in config.json; the
// snake-case Go name of a field JSON leaves out ("-": a setting that is
// not saved, such as a comparison's --out); "" for an unexported field.
// inline says the field is an embedded struct whose fields are its parent's.
func fieldKey(f reflect.StructField) (key string, inline bool) {
	if !f.IsExported() {
		return "", false
	}
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	switch {
	case name == "-":
		return snake(f.Name), false
	case name == "" && f.Anonymous && f.Type.Kind() == reflect.Struct:
		return "", true
	case name == "":
		return f.Name, false
	}
	return name, false
}

// snake is a Go name in snake case: MaxTokens → max_tokens, PRM → prm,
// PRMDir → prm_dir (an initialism is one word).
func snake(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i, r := range rs {
		if unicode.IsUpper(r) {
			lowerBefore := i > 0 && unicode.IsLower(rs[i-1])
			wordStart := i > 0 && i+1 < len(rs) && unicode.IsUpper(rs[i-1]) && unicode.IsLower(rs[i+1])
			if lowerBefore || wordStart {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// settingKeys lists the keys of every setting of a config struct type:
// its leaves (numbers, strings, maps, lists, durations), nested structs
// walked, under prefix.
func settingKeys(t reflect.Type, prefix string) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		key, inline := fieldKey(f)
		switch {
		case inline:
			out = append(out, settingKeys(f.Type, prefix)...)
		case key == "":
		case f.Type.Kind() == reflect.Struct:
			out = append(out, settingKeys(f.Type, prefix+key+".")...)
		default:
			out = append(out, prefix+key)
		}
	}
	return out
}

// covers says whether key or one of its parents (credit for
// credit.beta) is in n, and why.
func (n noFlag) covers(key string) (string, bool) {
	for k := key; ; {
		if why, ok := n[k]; ok {
			return why, true
		}
		i := strings.LastIndexByte(k, '.')
		if i < 0 {
			return "", false
		}
		k = k[:i]
	}
}

// pick is the settings of ss with the given keys, in that order, each
// renamed when rename names a new flag for its key.
func pick(ss []setting, rename map[string]string, keys ...string) []setting {
	out := make([]setting, 0, len(keys))
	for _, k := range keys {
		i := indexOf(ss, k)
		if i < 0 {
			panic("pick: no setting " + k)
		}
		s := ss[i]
		if n, ok := rename[k]; ok {
			s.flag = n
		}
		out = append(out, s)
	}
	return out
}

func indexOf(ss []setting, key string) int {
	for i, s := range ss {
		if s.key == key {
			return i
		}
	}
	return -1
}

// described is ss with each help text after the given words (a
// comparison's warm-up settings: "warm-up: …").
func described(words string, ss []setting) []setting {
	out := make([]setting, len(ss))
	for i, s := range ss {
		out[i] = setting{s.key, s.flag, words + s.usage}
	}
	return out
}

// under is ss with every key under prefix (optimizer.beta1 for AdamW's
// beta1 inside rl.Config).
func under(prefix string, ss []setting) []setting {
	out := make([]setting, len(ss))
	for i, s := range ss {
		out[i] = setting{prefix + s.key, s.flag, s.usage}
	}
	return out
}
