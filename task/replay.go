package task

// BlockStater is implemented by a prompt's Ref when the prompt's Text
// already states some of its rewards' information blocks (ifeval: the
// constraints, each composed after the request as its reward's block).
// ReplayBase is the text without them, the text replay composes the
// blocks after: then the replay prompt "without block k" states nothing of
// reward k, and the "full" one is exactly the prompt the policy answered.
type BlockStater interface {
	ReplayBase() string
}

// ReplayBase is the text replay composes information blocks after:
// p.Ref's ReplayBase when the Ref is a BlockStater that gives one, else
// p.Text (a prompt that states no block, or whose Ref cannot tell: an empty
// ReplayBase).
func ReplayBase(p Prompt) string {
	if s, ok := p.Ref.(BlockStater); ok {
		if base := s.ReplayBase(); base != "" {
			return base
		}
	}
	return p.Text
}

// Referencer is an optional capability of tasks that can write a correct
// response to any of their prompts (the clean demonstration of it). The
// block diagnostic (replay.BlockDiagnostic) reads its log-probability under
// the right, a wrong and a placebo block. Find it by type assertion.
type Referencer interface {
	// Reference is a response every reward of the task scores 1; false
	// when the task cannot write one for p (a prompt it did not make).
	Reference(p Prompt) (string, bool)
}
