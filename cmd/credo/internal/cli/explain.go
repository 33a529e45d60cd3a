package cli

import (
	"errors"
	"sort"
	"strings"

	"github.com/credo-rl/credo/internal/settings"
)

// UsageError marks a bad invocation, a flag's or a setting's, which credo
// reports with a pointer to --help and exit code 2. It does not unwrap:
// what it holds is a message for the user.
type UsageError struct{ Err error }

// Error is the message for the user, as the error it holds says it.
func (e UsageError) Error() string { return e.Err.Error() }

// Explain turns a configuration error into a usage error whose problems
// name the flags that set them (settings with no flag keep their config
// key, as in a --config file). Other errors pass unchanged.
func (f *Flags) Explain(err error) error {
	var ce *settings.Error
	if err == nil || !errors.As(err, &ce) {
		return err
	}
	var ps settings.Problems
	if errors.As(err, &ps) {
		return UsageError{errors.New(f.Problems(ps))}
	}
	return UsageError{ce.Err}
}

// FlagFor is the flag that sets key, as typed (--lr), or key itself, so
// that messages speak of settings the way the user gave them.
func (f *Flags) FlagFor(key string) string {
	if n, ok := f.keys[key]; ok {
		return "--" + n
	}
	if k, _, ok := strings.Cut(key, "."); ok {
		if n, ok := f.keys[k]; ok { // reward_weights.format → --reward-weight
			return "--" + n
		}
	}
	return key
}

// Problems is ps one per line, each named by its flag (FlagFor), sorted so
// that the message does not depend on the order of the checks.
func (f *Flags) Problems(ps settings.Problems) string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = f.FlagFor(p.Key) + ": " + p.Msg
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
