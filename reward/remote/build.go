package remote

import (
	"fmt"
	"slices"

	"github.com/credo-rl/credo/internal/redact"
	"github.com/credo-rl/credo/reward"
)

// Build makes the verifiers of specs (ParseSpec), each sent the records
// of tk's prompts when tk has them (Records; a records task does). Two
// specs with one name are an error.
func Build(specs []string, tk any) ([]reward.Verifier, error) {
	var opts []Option
	if r, ok := tk.(Records); ok {
		opts = append(opts, WithRecords(r))
	}
	var out []reward.Verifier
	for _, spec := range specs {
		v, err := NewFromSpec(spec, opts...)
		if err != nil {
			return nil, fmt.Errorf("--verifier %q: %w", redact.String(spec), err)
		}
		if slices.Contains(reward.NamesOf(out), v.Name()) {
			return nil, fmt.Errorf("--verifier %q: a second verifier named %q", redact.String(spec), v.Name())
		}
		out = append(out, v)
	}
	return out, nil
}
