package credit

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

// sawPrefix composes SAW with any registered method: "saw+gdpo", "saw+mrtpo", …
const sawPrefix = "saw+"

// The registry is filled by init functions and only read afterwards, like
// database/sql's drivers.
var registry = struct {
	sync.Mutex
	f map[string]func(Config) (Method, error)
}{f: map[string]func(Config) (Method, error){}}

func init() {
	Register("grpo", newGRPO)
	Register("gdpo", newGDPO)
	Register("span", newSpan)
	Register("mrtpo", newMRTPO)
	Register("p2t", newP2T)
	Register("p2t-step", newP2TStep)
}

// Register adds a method. Every method has the same signature; whatever it
// needs beyond its Config comes through the Batch. A duplicate name, an empty
// one, one starting with "saw+" or holding a "+" (New composes those) is a
// programming error and panics.
func Register(name string, f func(Config) (Method, error)) {
	if name == "" || strings.Contains(name, "+") || f == nil {
		panic(fmt.Sprintf("credit: cannot register method %q (empty name, %q prefix or nil constructor)", name, sawPrefix))
	}
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.f[name]; dup {
		panic(fmt.Sprintf("credit: method %q registered twice", name))
	}
	registry.f[name] = f
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
	if err := c.validateScaleTo(); err != nil {
		return nil, fmt.Errorf("credit method %q: %w", name, err)
	}
	return &scaled{inner: m, c: c}, nil
}

func newMethod(name string, c Config) (Method, error) {
	rest, withSAW := strings.CutPrefix(name, sawPrefix)
	base, _, _ := strings.Cut(rest, "+")
	registry.Lock()
	f, ok := registry.f[base]
	registry.Unlock()
	if !ok {
		return nil, fmt.Errorf("unknown credit method %q (known: %s; saw+<name> for any of them; variants %s)", name, strings.Join(Names(), ", "), strings.Join(Variants(), ", "))
	}
	_, c, err := splitVariants(rest, c)
	if err != nil {
		return nil, fmt.Errorf("credit method %q: %w", name, err)
	}
	m, err := f(c)
	if err != nil {
		return nil, fmt.Errorf("credit method %q: %w", name, err)
	}
	if !withSAW {
		return m, nil
	}
	if err := c.validateSAW(); err != nil {
		return nil, fmt.Errorf("credit method %q: %w", name, err)
	}
	return &saw{name: name, offsets: c.SAWOffsets, inner: m}, nil
}

// Names lists the registered methods in sorted order (saw+ compositions
// are not listed).
func Names() []string {
	registry.Lock()
	defer registry.Unlock()
	names := make([]string, 0, len(registry.f))
	for n := range registry.f {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}
