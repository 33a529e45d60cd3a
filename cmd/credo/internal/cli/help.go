package cli

import (
	"flag"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Help prints the usage line, the synopsis and every flag with its
// default: the groups first, then the flags in none, then the deprecated
// names on one line, so that a long list reads by topic.
func (f *Flags) Help(w io.Writer) {
	usage := f.UsageLine
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

// group is a titled set of flags that --help lists together.
type group struct {
	title string
	names []string // flag names, in the order listed
}

// Group makes --help list the named flags under title, in this order,
// after the groups before it; flags in no group follow as "Other flags".
func (f *Flags) Group(title string, names ...string) {
	f.groups = append(f.groups, group{title, names})
}

// writeFlag is one flag's entry in --help: name, kind, help, default.
func (f *Flags) writeFlag(w io.Writer, fl *flag.Flag) {
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
