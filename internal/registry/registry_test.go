package registry

import (
	"fmt"
	"strings"
	"testing"
)

func TestRegistry(t *testing.T) {
	r := New[func() int]("widget")
	r.Add("b", func() int { return 2 })
	r.Add("a", func() int { return 1 })
	if got := strings.Join(r.Names(), ","); got != "a,b" {
		t.Fatalf("Names = %q, want a,b", got)
	}
	f, err := r.Get("b")
	if err != nil || f() != 2 {
		t.Fatalf("Get(b) gave another function or an error: %v", err)
	}
	if _, err := r.Get("c"); err == nil || err.Error() != `unknown widget "c" (known: a, b)` {
		t.Fatalf("Get(c) error = %v", err)
	}
	// One name near a typo is offered (issue 49); "c" is as near a as b.
	r.Add("gamma", func() int { return 3 })
	if _, err := r.Get("gama"); err == nil || err.Error() != `unknown widget "gama": did you mean "gamma"? (known: a, b, gamma)` {
		t.Fatalf("Get(gama) error = %v", err)
	}
	if _, ok := r.Lookup("c"); ok {
		t.Fatal("Lookup(c) found something")
	}
}

func TestRegistryPanics(t *testing.T) {
	for _, tc := range []struct{ name, first, second string }{
		{"duplicate", "a", "a"},
		{"empty", "a", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := New[int]("widget")
			r.Add(tc.first, 1)
			defer func() {
				if recover() == nil {
					t.Fatalf("Add(%q) after Add(%q) did not panic", tc.second, tc.first)
				}
			}()
			r.Add(tc.second, 2)
		})
	}
}

func ExampleRegistry() {
	methods := New[func(x float64) float64]("method")
	methods.Add("double", func(x float64) float64 { return 2 * x })
	f, _ := methods.Get("double")
	_, err := methods.Get("triple")
	fmt.Println(f(2))
	fmt.Println(err)
	// Output:
	// 4
	// unknown method "triple" (known: double)
}
