package model

// ContextLength is the most positions one sequence may have
// (max_position_embeddings): what generation and replay bound prompts
// and responses by. It lets packages that take a model through an
// interface (sample.Decoder, rl's replay) ask for it.
func (m *Model) ContextLength() int { return m.Config.MaxPositionEmbeddings }
