package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/credo-rl/credo/internal/settings"

	"github.com/credo-rl/credo/rl"
)

// flags is a command's flag set: --help prints every flag on stdout; a
// parse error is that one error and a pointer to --help; float values must
// be finite; and each flag may name the configuration key it sets, so that
// a configuration's problems are reported by flag.
type flags struct {
	*flag.FlagSet
	cmd      string // "train", "prm train"
	synopsis string
	usage    string            // the usage line; default "Usage: credo <cmd> [flags]"
	stdout   io.Writer         // where --help goes
	stderr   io.Writer         // where a deprecated name's notice goes
	keys     map[string]string // config key → flag name
	aliases  map[string]string // deprecated flag name → its flag now
	groups   []flagGroup       // --help's sections (none: one list)
}

func newFlags(cmd, synopsis string, stdout, stderr io.Writer) *flags {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	fs.SetOutput(io.Discard) // parse reports errors itself, without the flag list
	fs.Usage = func() {}
	return &flags{FlagSet: fs, cmd: cmd, synopsis: synopsis, stdout: stdout, stderr: stderr,
		keys: map[string]string{}, aliases: map[string]string{}}
}

// deprecate keeps each old flag name (a key of aliases) working as its new
// name (the value), with a one-line notice on stderr when it is used. It
// leaves out the old names whose new flag this command does not have.
func (f *flags) deprecate(aliases map[string]string) {
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
	f        *flags
}

func (d *deprecated) Set(s string) error {
	fmt.Fprintf(d.f.stderr, "credo %s: --%s is deprecated, use --%s\n", d.f.cmd, d.old, d.now)
	return d.Value.Set(s)
}

func (d *deprecated) IsBoolFlag() bool {
	b, ok := d.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// key records that flag name sets the configuration key key.
func (f *flags) key(name, key string) { f.keys[key] = name }

// floatVar defines a float flag that refuses NaN and ±Inf, setting key.
func (f *flags) floatVar(p *float64, name, key string, usage string) {
	f.Var(&finiteFloat{p}, name, usage)
	if key != "" {
		f.key(name, key)
	}
}

func (f *flags) intVar(p *int, name, key string, usage string) {
	f.IntVar(p, name, *p, usage)
	if key != "" {
		f.key(name, key)
	}
}

func (f *flags) stringVar(p *string, name, key string, usage string) {
	f.StringVar(p, name, *p, usage)
	if key != "" {
		f.key(name, key)
	}
}

// parse parses args: --help prints the flags and returns flag.ErrHelp; any
// other problem is a usageError naming flags as they are typed (--lr).
func (f *flags) parse(args []string) error {
	if err := f.Parse(args); err != nil {
		return f.parseError(err)
	}
	if f.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected arguments %q", f.Args())}
	}
	return nil
}

func (f *flags) parseError(err error) error {
	if errors.Is(err, flag.ErrHelp) {
		f.help(f.stdout)
		return err
	}
	return usageError{errors.New(flagMessage(err.Error()))}
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

// help prints the usage line, the synopsis and every flag with its default.
func (f *flags) help(w io.Writer) {
	usage := f.usage
	if usage == "" {
		usage = "Usage: credo " + f.cmd + " [flags]"
	}
	fmt.Fprintf(w, "%s\n\n%s\n", usage, f.synopsis)
	listed := map[string]bool{}
	for _, g := range f.groups {
		fmt.Fprintf(w, "\n%s:\n", g.title)
		for _, name := range g.names {
			if fl := f.Lookup(name); fl != nil && !listed[name] {
				f.writeFlag(w, fl)
				listed[name] = true
			}
		}
	}
	title := "Flags"
	if len(f.groups) > 0 {
		title = "Other flags"
	}
	header := false
	f.VisitAll(func(fl *flag.Flag) {
		if _, ok := f.aliases[fl.Name]; ok || listed[fl.Name] {
			return // aliases are listed at the end
		}
		if !header {
			fmt.Fprintf(w, "\n%s:\n", title)
			header = true
		}
		f.writeFlag(w, fl)
	})
	if len(f.aliases) > 0 {
		var old []string
		for _, o := range slices.Sorted(maps.Keys(f.aliases)) {
			old = append(old, fmt.Sprintf("--%s (now --%s)", o, f.aliases[o]))
		}
		fmt.Fprintf(w, "\nDeprecated names, still accepted: %s\n", strings.Join(old, ", "))
	}
}

// flagGroup is a titled set of flags that --help lists together.
type flagGroup struct {
	title string
	names []string // flag names, in the order listed
}

// group makes --help list the named flags under title, in this order,
// after the groups before it; flags in no group follow as "Other flags".
func (f *flags) group(title string, names ...string) {
	f.groups = append(f.groups, flagGroup{title, names})
}

// writeFlag is one flag's entry in --help: name, kind, help, default.
func (f *flags) writeFlag(w io.Writer, fl *flag.Flag) {
	kind, text := flag.UnquoteUsage(fl)
	if k, ok := fl.Value.(interface{ kind() string }); ok {
		kind = k.kind()
	}
	line := "  --" + fl.Name
	if kind != "" {
		line += " " + kind
	}
	fmt.Fprintf(w, "%s\n    \t%s", line, strings.ReplaceAll(text, "\n", "\n    \t"))
	if d := fl.DefValue; d != "" && d != "0" && d != "false" && d != "0s" {
		if kind == "string" {
			d = strconv.Quote(d)
		}
		fmt.Fprintf(w, " (default %s)", d)
	}
	fmt.Fprintln(w)
}

// explain turns a configuration error into a usage error whose problems
// name the flags that set them (settings with no flag keep their config
// key, as in a --config file). Other errors pass unchanged.
func (f *flags) explain(err error) error {
	var ce *settings.Error
	if err == nil || !errors.As(err, &ce) {
		return err
	}
	var rc *rl.ResumeConflict
	if errors.As(err, &rc) {
		may := make([]string, 0, len(rc.MayChange))
		for _, k := range rc.MayChange {
			may = append(may, f.name(k))
		}
		return usageError{fmt.Errorf("%s\n(a resumed run keeps the settings it was started with: leave those flags out; only %s may change)",
			f.problems(rc.Problems), strings.Join(may, ", "))}
	}
	var ps settings.Problems
	if errors.As(err, &ps) {
		return usageError{errors.New(f.problems(ps))}
	}
	return usageError{ce.Err}
}

// name is the flag that sets key, as typed, or key itself.
func (f *flags) name(key string) string {
	if n, ok := f.keys[key]; ok {
		return "--" + n
	}
	if k, _, ok := strings.Cut(key, "."); ok {
		if n, ok := f.keys[k]; ok { // reward_weights.format → --reward-weight
			return "--" + n
		}
	}
	return key
}

func (f *flags) problems(ps settings.Problems) string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = f.name(p.Key) + ": " + p.Msg
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

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

// checkOut refuses to write into a folder that holds something unless
// replace says to overwrite it; flag names the flag that chose it.
func checkOut(dir, flag string, replace bool) error {
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return nil
	case err != nil:
		return err
	case !st.IsDir():
		return usageError{fmt.Errorf("--%s %s is a file, not a folder", flag, dir)}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(entries, notLock) || replace {
		return nil
	}
	names := make([]string, 0, 3)
	for _, e := range entries[:min(3, len(entries))] {
		names = append(names, e.Name())
	}
	more := ""
	if len(entries) > 3 {
		more = ", …"
	}
	return usageError{fmt.Errorf("--%s %s already holds %s%s: choose another folder, or pass --replace to overwrite it", flag, dir, strings.Join(names, ", "), more)}
}

// given reports whether the command line set the flag name (under its name
// or a deprecated one).
func (f *flags) given(name string) bool {
	set := false
	f.Visit(func(fl *flag.Flag) {
		if fl.Name == name || f.aliases[fl.Name] == name {
			set = true
		}
	})
	return set
}
