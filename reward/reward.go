package reward

import (
	"context"
	"strings"

	"github.com/credo-rl/credo/internal/registry"
)

// Prompt is one question put to the policy. Tasks create prompts; verifiers
// read them. Text never contains an information block: blocks are appended by
// Compose when a prompt is rendered for warm-up or replay.
type Prompt struct {
	ID   string // unique within a task (train and test splits never share one)
	Text string // what the policy is asked
	Ref  any    // the task's own reference (answer, schema, database …), for its verifiers
}

// Compose renders a prompt followed by information blocks (the Info of
// verdicts), in order, each on its own paragraph. Empty blocks are left
// out. Warm-up demonstrations and replay both use it, so the policy sees
// blocks in one format.
func Compose(prompt string, blocks []string) string {
	var b strings.Builder
	b.WriteString(prompt)
	for _, blk := range blocks {
		if blk == "" {
			continue
		}
		b.WriteString("\n\n")
		b.WriteString(blk)
	}
	return b.String()
}

// Verdict is a verifier's judgement of one response.
type Verdict struct {
	Score float64 // the reward, usually in [0, 1]
	Info  string  // the information block: format description, the error raised, the reference
	Spans []Span  // the parts of the response this score depends on, as byte ranges
	// Reason says why the score is what it is when that is not obvious (an
	// error, a time-out, a rejected query). It is logged, never shown to the policy.
	Reason string
	// Skip says the reward does not apply to this prompt (an ifeval
	// constraint kind the prompt does not have). Score is then 0; credit
	// sees no variance and metrics leave the verdict out of the reward's mean.
	Skip bool
}

// Span is a byte range [Start, End) of a response with a strength (0
// means 1) and, where the verifier knows it, the part's effect on the
// score (see Effect).
type Span struct {
	Start, End int
	Strength   float64
	Effect     Effect `json:",omitempty"`
}

// Weight is the span's strength, with the default of 1 for an unset strength.
func (s Span) Weight() float64 {
	if s.Strength == 0 {
		return 1
	}
	return s.Strength
}

// Verifier scores a response to a prompt. Verify must honour ctx: it is
// called with a per-verdict time limit.
type Verifier interface {
	Name() string
	Verify(ctx context.Context, p Prompt, response string) (Verdict, error)
}

// Weighted is a verifier with a default weight in the combined reward
// (a judge's configured weight); a verifier without it weighs 1. A run's
// reward_weights setting overrides it.
type Weighted interface {
	Verifier
	Weight() float64
}

// Reporter is a verifier with metrics of its own (a judge's requests,
// retries and cache hits), written with every step's metrics under the
// keys it returns.
type Reporter interface {
	Verifier
	Metrics() map[string]float64
}

// Factory builds a verifier from a spec, a comma-separated list of key=value
// pairs (for example "url=http://localhost:8000/v1,model=judge").
type Factory func(spec string) (Verifier, error)

// verifiers is filled by init functions and only read afterwards, like
// database/sql's drivers.
var verifiers = registry.New[Factory]("verifier")

// Register adds a verifier kind. A duplicate name is a programming error and panics.
func Register(name string, f Factory) { verifiers.Add(name, f) }

// New builds the verifier registered under name from spec. An unknown name's
// error lists the known ones.
func New(name, spec string) (Verifier, error) {
	f, err := verifiers.Get(name)
	if err != nil {
		return nil, err
	}
	return f(spec)
}

// Names lists the registered verifier kinds in sorted order.
func Names() []string { return verifiers.Names() }

// NamesOf lists the names of vs, in their order.
func NamesOf(vs []Verifier) []string {
	names := make([]string, len(vs))
	for i, v := range vs {
		names[i] = v.Name()
	}
	return names
}
