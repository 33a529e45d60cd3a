package credit

import (
	"fmt"
	"slices"
	"strings"
)

// A Variant is an ablation of a method, named as a suffix: "span+shuffle",
// "mrtpo+joint", "mrtpo+shuffle+joint". It sets one option of Config, so a
// variant is the same method with that option: a comparison can name it
// beside the method and the trainer never needs to know. Each method
// declares the variants that change its output where it registers.
type Variant struct {
	Name  string
	Doc   string
	Apply func(*Config)
}

// The variants of credo's methods.
var (
	Shuffle = Variant{"shuffle", "permute each response's weights across its tokens: same values, wrong places",
		func(c *Config) { c.Shuffle = true }}
	Joint = Variant{"joint", "one replay without every block, shared by all rewards",
		func(c *Config) { c.Joint = true }}
	Neutral = Variant{"neutral", "replace each removed block by neutral text of its length: the equal-length control",
		func(c *Config) { c.Neutral = true }}
	WrongSpans = Variant{"wrong", "place each reward on another reward's spans",
		func(c *Config) { c.WrongSpans = true }}
)

// Variants lists the variant suffixes with the methods they apply to and
// what each does, sorted.
func Variants() []string {
	applies := map[string][]string{} // variant → methods
	docs := map[string]string{}
	for _, name := range Names() {
		e, _ := methods.Lookup(name)
		for _, v := range e.variants {
			applies[v.Name] = append(applies[v.Name], name)
			docs[v.Name] = v.Doc
		}
	}
	var out []string
	for v, ms := range applies {
		out = append(out, fmt.Sprintf("+%s (%s: %s)", v, strings.Join(ms, ", "), docs[v]))
	}
	slices.Sort(out)
	return out
}

// apply sets c's options for the variants in "base+v1+v2". A variant the
// method does not declare is an error: "gdpo+shuffle" would silently be
// gdpo.
func (e entry) apply(name string, c Config) (Config, error) {
	parts := strings.Split(name, "+")
	for _, p := range parts[1:] {
		i := slices.IndexFunc(e.variants, func(v Variant) bool { return v.Name == p })
		if i < 0 {
			return c, unknownVariant(p, parts[0], name)
		}
		e.variants[i].Apply(&c)
	}
	return c, nil
}

// unknownVariant says whether p is no variant at all or one of another
// method's.
func unknownVariant(p, base, name string) error {
	var known, others []string
	for _, name := range Names() {
		m, _ := methods.Lookup(name)
		for _, v := range m.variants {
			if !slices.Contains(known, v.Name) {
				known = append(known, v.Name)
			}
			if v.Name == p {
				others = append(others, name)
			}
		}
	}
	if len(others) == 0 {
		slices.Sort(known)
		return fmt.Errorf("unknown variant %q in %q (known: %s)", p, name, strings.Join(known, ", "))
	}
	return fmt.Errorf("variant %q does not apply to %s (it changes %s)", p, base, strings.Join(others, ", "))
}
