package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"reflect"
	"regexp"
	"strings"

	"github.com/credo-rl/credo/internal/suggest"
)

// Flags is a command's flag set: --help prints every flag on stdout; a
// parse error is that one error and a pointer to --help; float values must
// be finite; and each flag may name the configuration key it sets, so that
// a configuration's problems are reported by flag. Its Parse replaces the
// flag.FlagSet's; the FlagSet's other methods define the plain flags.
type Flags struct {
	*flag.FlagSet
	// UsageLine is --help's first line, for a command that takes more than
	// flags; default "Usage: credo <cmd> [flags]".
	UsageLine string

	cmd      string // "train", "prm train"
	synopsis string
	stdout   io.Writer               // where --help goes
	stderr   io.Writer               // where a deprecated name's notice goes
	keys     map[string]string       // config key → flag name
	aliases  map[string]string       // deprecated flag name → its flag now
	groups   []group                 // --help's sections (none: one list)
	kinds    map[reflect.Type]string // a bound flag.Value type → its kind in --help
}

// New is the flag set of credo's command cmd ("train", "prm train"), whose
// --help shows synopsis under the usage line. The flag package prints
// nothing itself: --help goes to stdout, notices to stderr, and errors are
// returned.
func New(cmd, synopsis string, stdout, stderr io.Writer) *Flags {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // parse reports errors itself, without the flag list
	fs.Usage = func() {}
	return &Flags{FlagSet: fs, cmd: cmd, synopsis: synopsis, stdout: stdout, stderr: stderr,
		keys: map[string]string{}, aliases: map[string]string{}, kinds: map[reflect.Type]string{}}
}

// Stderr is where the command's notices go, for settings read from
// elsewhere (a config file) to be noticed alike.
func (f *Flags) Stderr() io.Writer { return f.stderr }

// Kind names the kind --help gives a bound setting of type t, a
// flag.Value type of the caller's (a duration type), for which the flag
// package would say only "value".
func (f *Flags) Kind(t reflect.Type, kind string) { f.kinds[t] = kind }

// Deprecate keeps each old flag name (a key of aliases) working as its new
// name (the value), with a one-line notice on stderr when it is used. It
// leaves out the old names whose new flag this command does not have.
func (f *Flags) Deprecate(aliases map[string]string) {
	for old, now := range aliases {
		target := f.Lookup(now)
		if target == nil {
			continue
		}
		f.Var(&deprecated{target.Value, old, now, f}, old, "deprecated: use --"+now)
		f.aliases[old] = now
	}
}

// deprecated is a flag's former name.
type deprecated struct {
	flag.Value
	old, now string
	f        *Flags
}

func (d *deprecated) Set(s string) error {
	fmt.Fprintf(d.f.stderr, "credo %s: --%s is deprecated, use --%s\n", d.f.cmd, d.old, d.now)
	return d.Value.Set(s)
}

func (d *deprecated) IsBoolFlag() bool {
	b, ok := d.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// Key records that flag name sets the configuration key key, so that a
// problem with key is reported as --name.
func (f *Flags) Key(name, key string) { f.keys[key] = name }

// Keys maps each configuration key the flags set to its flag's name, for
// reading a setting by either (a config file's keys).
func (f *Flags) Keys() map[string]string { return maps.Clone(f.keys) }

// FloatVar defines a float flag that refuses NaN and ±Inf (no setting
// means anything at either, and they would reach training unnoticed),
// setting key (none if "").
func (f *Flags) FloatVar(p *float64, name, key string, usage string) {
	f.Var(&finiteFloat{p}, name, usage)
	if key != "" {
		f.Key(name, key)
	}
}

// ListVar defines a repeatable string flag: given on the command line, it
// replaces the list *p starts with (a config file's, a saved run's).
func (f *Flags) ListVar(p *[]string, name, usage string) {
	f.Var(&listFlag{v: p}, name, usage)
}

// Parse parses args of a command that takes only flags: --help prints the
// flags and returns flag.ErrHelp; any other problem is a UsageError naming
// flags as they are typed (--lr).
func (f *Flags) Parse(args []string) error {
	if err := f.FlagSet.Parse(args); err != nil {
		return f.parseError(err)
	}
	if f.NArg() > 0 {
		return UsageError{fmt.Errorf("unexpected arguments %q", f.Args())}
	}
	return nil
}

// ParsePositional is Parse for a command that takes arguments too: it
// parses flags placed before, between or after the positional arguments
// (flag stops at the first non-flag) and returns the positional ones;
// everything after "--" is positional.
func (f *Flags) ParsePositional(args []string) ([]string, error) {
	var pos []string
	for {
		if err := f.FlagSet.Parse(args); err != nil {
			return nil, f.parseError(err)
		}
		rest := f.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(pos, rest...), nil
		}
		pos, args = append(pos, rest[0]), rest[1:]
	}
}

func (f *Flags) parseError(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		f.Help(f.stdout)
		return err
	}
	msg := flagMessage(err.Error())
	if name, ok := strings.CutPrefix(msg, "unknown flag --"); ok {
		var names []string
		f.VisitAll(func(fl *flag.Flag) { names = append(names, fl.Name) })
		if near, ok := suggest.Closest(name, names); ok {
			msg += ": did you mean --" + near + "?"
		}
	}
	return UsageError{errors.New(msg)}
}

// flagMessage rewrites the flag package's messages, which name flags with
// one dash, the way users type them.
func flagMessage(msg string) string {
	for _, r := range []struct {
		re   *regexp.Regexp
		with string
	}{
		{regexp.MustCompile(`^flag provided but not defined: -+(\S+)$`), "unknown flag --$1"},
		{regexp.MustCompile(`^invalid (?:boolean )?value (".*") for (?:flag )?-+([^:\s]+): (.*)$`), "--$2: invalid value $1: $3"},
		{regexp.MustCompile(`^flag needs an argument: -+(\S+)$`), "--$1 needs a value"},
	} {
		if r.re.MatchString(msg) {
			return r.re.ReplaceAllString(msg, r.with)
		}
	}
	return msg
}

// Given reports whether the command line set the flag name (under its name
// or a deprecated one), for defaults that depend on what the user chose.
func (f *Flags) Given(name string) bool {
	set := false
	f.Visit(func(fl *flag.Flag) {
		if fl.Name == name || f.aliases[fl.Name] == name {
			set = true
		}
	})
	return set
}
