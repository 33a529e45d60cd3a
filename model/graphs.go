package model

import (
	"fmt"
	"reflect"
	"strings"
	"sync"

	. "github.com/gomlx/gomlx/core/graph" //nolint:revive
	"github.com/gomlx/gomlx/core/tensors"
)

// MaxGraphs is how many input shapes one Exec compiles before Graphs
// starts a fresh one. GoMLX refuses a shape past its Exec's cache limit,
// which ended a whole comparison in replay (its calls vary in rows as
// well as length); a fresh Exec compiles again what it needs, and the old
// one's graphs, plain Go memory on this backend, go when its last call
// returns.
const MaxGraphs = 256

// Graphs holds one compiled Exec per purpose and the input shapes each
// has compiled, so that no purpose ever meets GoMLX's cache limit: the
// model's forward functions and optim's training steps get their Execs
// from one. It is safe for concurrent use.
type Graphs struct {
	limit int // shapes per Exec

	mu    sync.Mutex
	execs map[string]*compiled
}

// compiled is one purpose's Exec and the input shapes it has compiled.
type compiled struct {
	exec   *Exec
	shapes map[string]bool
}

// NewGraphs returns an empty set of Execs, each compiling at most limit
// shapes (limit ≤ 0: MaxGraphs); tests set it low.
func NewGraphs(limit int) *Graphs {
	if limit <= 0 {
		limit = MaxGraphs
	}
	return &Graphs{limit: limit, execs: map[string]*compiled{}}
}

// Exec returns the Exec registered under name for inputs of shape key
// (ShapeKey of the call's arguments), building it with build the first
// time and again once the one in use has compiled limit other shapes.
func (g *Graphs) Exec(name, key string, build func() (*Exec, error)) (*Exec, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if c, ok := g.execs[name]; ok && (c.shapes[key] || len(c.shapes) < g.limit) {
		c.shapes[key] = true
		return c.exec, nil
	}
	e, err := build()
	if err != nil {
		return nil, fmt.Errorf("build %s graph: %w", name, err)
	}
	e.SetMaxCache(g.limit + 1) // never reached: Exec counts the shapes first
	g.execs[name] = &compiled{exec: e, shapes: map[string]bool{key: true}}
	return e, nil
}

// Shapes is how many input shapes name's Exec in use has compiled.
func (g *Graphs) Shapes(name string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	if c, ok := g.execs[name]; ok {
		return len(c.shapes)
	}
	return 0
}

// ShapeKey names the shapes of a graph call's arguments as GoMLX sees
// them: a tensor's shape; a slice's length and its first row's (a ragged
// row set is the caller's to pad); a scalar's type.
func ShapeKey(args []any) string {
	var b strings.Builder
	for _, a := range args {
		if t, ok := a.(*tensors.Tensor); ok {
			b.WriteString(t.Shape().String())
		} else if v := reflect.ValueOf(a); v.Kind() == reflect.Slice {
			fmt.Fprintf(&b, "%T[%d", a, v.Len())
			if v.Len() > 0 && v.Index(0).Kind() == reflect.Slice {
				fmt.Fprintf(&b, ",%d", v.Index(0).Len())
			}
			b.WriteByte(']')
		} else {
			fmt.Fprintf(&b, "%T", a)
		}
		b.WriteByte(';')
	}
	return b.String()
}
