package credit

import (
	"fmt"
	"strings"

	"github.com/credo-rl/credo/internal/registry"
	"github.com/credo-rl/credo/internal/suggest"
)

// sawPrefix composes SAW with any registered method: "saw+gdpo", "saw+mrtpo", …
const sawPrefix = "saw+"

// entry is a registered method: its constructor and the variants that
// apply to it.
type entry struct {
	f        func(Config) (Method, error)
	variants []Variant
}

// methods is filled by the init functions of the files that define each
// method and only read afterwards.
var methods = registry.New[entry]("credit method")

// Register adds a method with the variants (ablations) that apply to it.
// Every method has the same signature; whatever it needs beyond its
// Config comes through the Batch. A duplicate name, an empty one, one
// holding a "+" (New composes those) or a nil constructor is a
// programming error and panics.
func Register(name string, f func(Config) (Method, error), variants ...Variant) {
	if name == "" || strings.Contains(name, "+") || f == nil {
		panic(fmt.Sprintf("credit: cannot register method %q (empty name, a %q in it, or a nil constructor)", name, "+"))
	}
	methods.Add(name, entry{f: f, variants: variants})
}

// New builds the named method from c. "saw+X" is SAW composed with any
// registered method X; "X+v" is X with variant v's option set (Variants);
// with c.ScaleTo set, any of them is rescaled to GRPO's step size. An
// unknown name's error lists the known ones.
func New(name string, c Config) (Method, error) {
	m, err := newMethod(name, c)
	if err != nil || c.ScaleTo == "" || c.ScaleTo == ScaleToRaw {
		return m, err
	}
	if err := c.ScaleOptions.Validate(); err != nil {
		return nil, fmt.Errorf("credit method %q: %w", name, err)
	}
	return &scaled{inner: m, c: c}, nil
}

func newMethod(name string, c Config) (Method, error) {
	rest, withSAW := strings.CutPrefix(name, sawPrefix)
	base, _, _ := strings.Cut(rest, "+")
	e, ok := methods.Lookup(base)
	if !ok {
		return nil, fmt.Errorf("unknown credit method %q%s (known: %s; saw+<name> for any of them; variants %s)", name, methodHint(name, base), strings.Join(Names(), ", "), strings.Join(Variants(), ", "))
	}
	c, err := e.apply(rest, c)
	if err != nil {
		return nil, fmt.Errorf("credit method %q: %w", name, err)
	}
	m, err := e.f(c)
	if err != nil {
		return nil, fmt.Errorf("credit method %q: %w", name, err)
	}
	if !withSAW {
		return m, nil
	}
	if err := c.SAWOptions.Validate(); err != nil {
		return nil, fmt.Errorf("credit method %q: %w", name, err)
	}
	return &saw{name: name, offsets: c.SAWOffsets, inner: m}, nil
}

// Names lists the registered methods in sorted order (saw+ compositions
// and variants are not listed).
func Names() []string { return methods.Names() }

// methodHint is `: did you mean "x"?` for a mistyped method name whose base
// is near one registered (spam+shuffle: span+shuffle), else "".
func methodHint(name, base string) string {
	k, ok := suggest.Closest(base, Names())
	if !ok {
		return ""
	}
	return `: did you mean "` + strings.Replace(name, base, k, 1) + `"?`
}
