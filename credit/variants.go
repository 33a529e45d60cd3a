package credit

import (
	"fmt"
	"slices"
	"strings"
)

// A variant is an ablation of a method, named as a suffix: "span+shuffle",
// "mrtpo+joint", "mrtpo+shuffle+joint". It sets one option of Config, so a
// variant is the same method with that option: a comparison can name it
// beside the method and the trainer never needs to know.
type variant struct {
	doc     string
	methods []string // the methods whose output the option changes
	apply   func(*Config)
}

var variants = map[string]variant{
	"shuffle": {"permute each response's weights across its tokens: same values, wrong places",
		[]string{"span", "mrtpo"}, func(c *Config) { c.Shuffle = true }},
	"joint": {"one replay without every block, shared by all rewards",
		[]string{"mrtpo"}, func(c *Config) { c.Joint = true }},
	"wrong": {"place each reward on another reward's spans",
		[]string{"span"}, func(c *Config) { c.WrongSpans = true }},
}

// Variants lists the variant suffixes with what each does, sorted.
func Variants() []string {
	var out []string
	for name, v := range variants {
		out = append(out, fmt.Sprintf("+%s (%s: %s)", name, strings.Join(v.methods, ", "), v.doc))
	}
	slices.Sort(out)
	return out
}

// splitVariants cuts "base+v1+v2" into the base method's name and c with
// every variant's option set. A variant that does not apply to the base
// method is an error: "gdpo+shuffle" would silently be gdpo.
func splitVariants(name string, c Config) (string, Config, error) {
	parts := strings.Split(name, "+")
	base := parts[0]
	for _, p := range parts[1:] {
		v, ok := variants[p]
		if !ok {
			known := make([]string, 0, len(variants))
			for k := range variants {
				known = append(known, k)
			}
			slices.Sort(known)
			return "", c, fmt.Errorf("unknown variant %q in %q (known: %s)", p, name, strings.Join(known, ", "))
		}
		if !slices.Contains(v.methods, base) {
			return "", c, fmt.Errorf("variant %q does not apply to %s (it changes %s)", p, base, strings.Join(v.methods, ", "))
		}
		v.apply(&c)
	}
	return base, c, nil
}
