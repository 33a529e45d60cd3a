package credit

// Requirements says what a method needs beyond scores, so a trainer can
// check a configuration before any work starts without knowing methods by
// name.
type Requirements struct {
	Replay     bool // Batch.Replay must be set
	InfoBlocks bool // verdicts must carry information blocks (Info) to remove
	PRM        bool // Batch.PRM must be set
}

// Requirer is the optional capability of methods that need more than
// scores. Find it by type assertion; a method without it needs nothing.
type Requirer interface {
	Requires() Requirements
}

// Requires: a placed method needs what its source needs.
func (m *placed) Requires() Requirements {
	if r, ok := m.src.(Requirer); ok {
		return r.Requires()
	}
	return Requirements{}
}

// Requires: replay reruns the policy on prompts without each reward's block.
func (replaySource) Requires() Requirements { return Requirements{Replay: true, InfoBlocks: true} }

// Requires: P2T asks a process reward model for token influence.
func (*p2t) Requires() Requirements { return Requirements{PRM: true} }

// Requires: SAW needs what the method it reweights needs.
func (m *saw) Requires() Requirements { return RequirementsOf(m.inner) }

// RequirementsOf returns what m needs (nothing when m is not a Requirer).
func RequirementsOf(m Method) Requirements {
	if r, ok := m.(Requirer); ok {
		return r.Requires()
	}
	return Requirements{}
}
