package cli

import (
	"flag"
	"fmt"
	"reflect"
	"strings"
	"time"
	"unicode"
)

// Setting is a configuration setting that has a flag: its key in the
// configuration (JSON names, dotted for nested structs: credit.beta), the
// flag's name and its help. The flag's type and default are the field's,
// found by the key, so that a table of Settings is the one place a
// setting's flag, config-file key and help meet; a key that names no field
// panics when bound.
type Setting struct {
	Key, Flag, Usage string
}

// NoFlag lists, by key, settings of a config struct that deliberately
// have no flag, each with the reason, so that a test can fail for a
// setting with neither; a key covers every setting under it.
type NoFlag map[string]string

// Bind defines the flag of each setting over the struct cfg points to and
// records prefix+key as the key the flag sets, so a problem with the
// setting is reported by its flag.
func (f *Flags) Bind(cfg any, prefix string, ss ...Setting) {
	for _, s := range ss {
		f.bindField(settingField(cfg, s.Key), s.Flag, s.Usage)
		f.Key(s.Flag, prefix+s.Key)
	}
}

// bindField defines a flag of the field's type: floats refuse NaN and
// ±Inf, a map of floats takes name=value pairs and a list of strings
// repeats.
func (f *Flags) bindField(v reflect.Value, name, usage string) {
	switch p := v.Addr().Interface().(type) {
	case flag.Value:
		if k, ok := f.kinds[v.Type()]; ok {
			f.Var(kinded{p, k}, name, usage)
		} else {
			f.Var(p, name, usage)
		}
	case *string:
		f.FlagSet.StringVar(p, name, *p, usage)
	case *int:
		f.FlagSet.IntVar(p, name, *p, usage)
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

// SettingKeys lists the keys of every setting of a config struct type,
// the keys Bind takes, so that a test can check each has a flag or a
// NoFlag reason: its leaves (numbers, strings, maps, lists, durations),
// nested structs walked, under prefix.
func SettingKeys(t reflect.Type, prefix string) []string {
	var out []string
	for i := range t.NumField() {
		f := t.Field(i)
		key, inline := fieldKey(f)
		switch {
		case inline:
			out = append(out, SettingKeys(f.Type, prefix)...)
		case key == "":
		case f.Type.Kind() == reflect.Struct:
			out = append(out, SettingKeys(f.Type, prefix+key+".")...)
		default:
			out = append(out, prefix+key)
		}
	}
	return out
}

// Covers says whether key or one of its parents (credit for
// credit.beta) is in n, and why.
func (n NoFlag) Covers(key string) (string, bool) {
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

// Pick is the settings of ss with the given keys, in that order, each
// renamed when rename names a new flag for its key: a command that takes
// a few of a table's settings keeps their help.
func Pick(ss []Setting, rename map[string]string, keys ...string) []Setting {
	out := make([]Setting, 0, len(keys))
	for _, k := range keys {
		i := indexOf(ss, k)
		if i < 0 {
			panic("pick: no setting " + k)
		}
		s := ss[i]
		if n, ok := rename[k]; ok {
			s.Flag = n
		}
		out = append(out, s)
	}
	return out
}

func indexOf(ss []Setting, key string) int {
	for i, s := range ss {
		if s.Key == key {
			return i
		}
	}
	return -1
}

// Described is ss with each help text after the given words, to tell
// apart flags of one table bound twice (a comparison's warm-up settings:
// "warm-up: …").
func Described(words string, ss []Setting) []Setting {
	out := make([]Setting, len(ss))
	for i, s := range ss {
		out[i] = Setting{s.Key, s.Flag, words + s.Usage}
	}
	return out
}

// Under is ss with every key under prefix, for a table of a struct that is
// nested in several configs (optimizer.beta1 for AdamW's beta1 inside
// rl.Config).
func Under(prefix string, ss []Setting) []Setting {
	out := make([]Setting, len(ss))
	for i, s := range ss {
		out[i] = Setting{prefix + s.Key, s.Flag, s.Usage}
	}
	return out
}
