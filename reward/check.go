package reward

import "context"

// Checker is a verifier that can be asked once, before any work, whether
// it can work at all (a judge: is its server up, does it know the model).
type Checker interface {
	Verifier
	Check(ctx context.Context) error
}

// Check asks every verifier that can say so (a Checker) whether it can
// work at all: a judge whose server is down or does not know its model
// would otherwise score every response 0, and a run would look like it
// learns nothing. The first failure is returned as the checker gave it.
func Check(ctx context.Context, vs []Verifier) error {
	for _, v := range vs {
		if c, ok := v.(Checker); ok {
			if err := c.Check(ctx); err != nil {
				return err // a checker's error names it (judge q: …)
			}
		}
	}
	return nil
}
