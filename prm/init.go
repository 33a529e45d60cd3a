package prm

import (
	"fmt"

	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/tokenizer"
)

// ModelConfig is the named preset (model.Tiny, Small or Medium) as a
// scoring model: one label, untied embeddings.
func ModelConfig(size string, vocab int) (model.Config, error) {
	var c model.Config
	switch size {
	case "tiny":
		c = model.Tiny(vocab)
	case "small", "":
		c = model.Small(vocab)
	case "medium":
		c = model.Medium(vocab)
	default:
		return c, fmt.Errorf("unknown model size %q (known: tiny, small, medium)", size)
	}
	c.NumLabels, c.TieWordEmbeddings = 1, false
	return c, nil
}

// newPRM is the PRM training starts from: fresh weights of c.Size with the
// byte-level tokenizer, or c.Init's language model and tokenizer. Its steps
// are the task's: its registered step labeler, or the default separator
// for a task without one. A task that labels steps but has not registered
// its labeler is an error: the PRM could not split responses as it was
// trained when it is loaded.
func newPRM(c TrainConfig, t task.Task) (*PRM, error) {
	info := Info{Task: t.Name()}
	_, labels := t.(task.StepLabeler)
	_, registered := task.StepsOf(t.Name())
	switch {
	case labels && !registered:
		return nil, fmt.Errorf("prm train: task %s labels steps but registers no step labeler (task.RegisterSteps), so a loaded PRM could not split responses as it was trained", t.Name())
	case !registered:
		info.Separator = DefaultSeparator
	}
	if c.Init != "" {
		pol, err := policy.Load(c.Init)
		if err != nil {
			return nil, fmt.Errorf("prm train: init: %w", err)
		}
		m, err := FromLanguageModel(pol.Model, c.Seed)
		if err != nil {
			return nil, fmt.Errorf("prm train: init from %s: %w", c.Init, err)
		}
		return New(m, pol.Tok, info)
	}
	tok, err := tokenizer.NewBytes()
	if err != nil {
		return nil, err
	}
	mc, err := ModelConfig(c.Size, tok.VocabSize())
	if err != nil {
		return nil, fmt.Errorf("prm train: %w", err)
	}
	m, err := model.New(mc, c.Seed)
	if err != nil {
		return nil, fmt.Errorf("prm train: %w", err)
	}
	return New(m, tok, info)
}

// FromLanguageModel makes a scoring model (one label, untied embeddings)
// of lm's shape whose embeddings, layers and final norm are copies of
// lm's; the scoring head is drawn from seed.
func FromLanguageModel(lm *model.Model, seed uint64) (*model.Model, error) {
	mc := lm.Config
	if mc.NumLabels > 0 {
		return nil, fmt.Errorf("the model already has a scoring head")
	}
	mc.NumLabels, mc.TieWordEmbeddings, mc.Architectures = 1, false, nil
	m, err := model.New(mc, seed)
	if err != nil {
		return nil, err
	}
	have := map[string][]float32{}
	for i, d := range lm.ParamData() {
		have[lm.Specs()[i].Name] = d
	}
	data := m.ParamData()
	for i, sp := range m.Specs() {
		if d, ok := have[sp.Name]; ok && len(d) == len(data[i]) {
			data[i] = d
		}
	}
	if err := m.SetParamData(data); err != nil {
		return nil, err
	}
	return m, nil
}
