package registry

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/credo-rl/credo/internal/suggest"
)

// Registry maps names to values of one kind (a constructor, usually).
type Registry[F any] struct {
	kind string // what a name names, for messages: "credit method", "task", …
	mu   sync.Mutex
	m    map[string]F
}

// New returns an empty registry of things called kind in its messages.
func New[F any](kind string) *Registry[F] {
	return &Registry[F]{kind: kind, m: map[string]F{}}
}

// Add registers f under name. An empty or duplicate name is a programming
// error and panics.
func (r *Registry[F]) Add(name string, f F) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if name == "" {
		panic(fmt.Sprintf("registry: a %s with an empty name", r.kind))
	}
	if _, dup := r.m[name]; dup {
		panic(fmt.Sprintf("registry: %s %q registered twice", r.kind, name))
	}
	r.m[name] = f
}

// Lookup returns what is registered under name; ok is false when nothing is.
func (r *Registry[F]) Lookup(name string) (f F, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f, ok = r.m[name]
	return f, ok
}

// Get is Lookup with an error, for an unknown name, that lists the known
// ones, and the one meant where a typo is plain: unknown <kind> "x":
// did you mean "y"? (known: a, b, y).
func (r *Registry[F]) Get(name string) (F, error) {
	if f, ok := r.Lookup(name); ok {
		return f, nil
	}
	var zero F
	names := r.Names()
	return zero, fmt.Errorf("unknown %s %q%s (known: %s)", r.kind, name, suggest.Hint(name, names), strings.Join(names, ", "))
}

// Names lists the registered names in sorted order.
func (r *Registry[F]) Names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	names := make([]string, 0, len(r.m))
	for n := range r.m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}
