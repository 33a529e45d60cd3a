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
// one or one starting with "saw+" (New composes those) is a programming
// error and panics.
func Register(name string, f func(Config) (Method, error)) {
	if name == "" || strings.HasPrefix(name, sawPrefix) || f == nil {
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
// registered method X. An unknown name's error lists the known ones.
func New(name string, c Config) (Method, error) {
	base, withSAW := strings.CutPrefix(name, sawPrefix)
	registry.Lock()
	f, ok := registry.f[base]
	registry.Unlock()
	if !ok {
		return nil, fmt.Errorf("unknown credit method %q (known: %s; and saw+<name> for any of them)", name, strings.Join(Names(), ", "))
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
