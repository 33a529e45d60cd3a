package prm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/internal/boundedread"
	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/model/hf"
	"github.com/credo-rl/credo/policy"
	"github.com/credo-rl/credo/run"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/tokenizer"
)

// Scorer is what the PRM needs of its scoring model; *model.Model (with
// NumLabels ≥ 1) implements it. Tests plug in models they can reason
// about exactly, such as one linear in its embeddings.
type Scorer interface {
	// Scores is the label-0 logit at every token of each sequence.
	Scores(ctx context.Context, seqs [][]int32) ([][]float32, error)
	// EmbeddingGradient returns the scores, the input embeddings e and
	// ∂S/∂e for S = Σ sel·score, in one forward and one backward pass.
	EmbeddingGradient(ctx context.Context, seqs [][]int32, sel [][]float32) (scores [][]float32, emb, grad [][][]float32, err error)
	// ScoreEmbeddings scores given input embeddings instead of tokens.
	ScoreEmbeddings(ctx context.Context, emb [][][]float32) ([][]float32, error)
	// EmbeddingRow is one token's input embedding.
	EmbeddingRow(id int32) ([]float32, error)
	// MeanEmbedding is the mean of the embedding table's rows.
	MeanEmbedding() []float32
}

var _ Scorer = (*model.Model)(nil)

// Splitter gives the byte ranges [start, end) of a response's steps, in
// order and disjoint. The prompt is the plain prompt text.
type Splitter func(prompt, response string) [][2]int

// SeparatorSplitter splits a response on sep: every piece that is not
// blank is a step, its range trimmed of surrounding white space.
func SeparatorSplitter(sep string) Splitter {
	return func(_, response string) [][2]int {
		var out [][2]int
		for start := 0; start <= len(response); {
			end := len(response)
			if sep != "" {
				if i := strings.Index(response[start:], sep); i >= 0 {
					end = start + i
				}
			}
			s, e := start, end
			for s < e && isSpace(response[s]) {
				s++
			}
			for e > s && isSpace(response[e-1]) {
				e--
			}
			if e > s {
				out = append(out, [2]int{s, e})
			}
			if sep == "" || end == len(response) {
				break
			}
			start = end + len(sep)
		}
		return out
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// LabelerSplitter splits with a task's step labeler, ignoring its labels:
// the PRM then reads exactly the steps it was trained on.
func LabelerSplitter(l task.StepLabeler) Splitter {
	return func(prompt, response string) [][2]int {
		steps := l.Steps(task.Prompt{Text: prompt}, response)
		out := make([][2]int, 0, len(steps))
		for _, s := range steps {
			out = append(out, [2]int{s.Start, s.End})
		}
		return out
	}
}

// DefaultSeparator splits steps when neither a task nor a separator is
// named: a blank line, as ALGORITHMS.md says.
const DefaultSeparator = "\n\n"

// Info is what InfoFile records about a PRM besides its model and
// tokenizer: how responses are split into steps.
type Info struct {
	// Task names a registered task whose step labeler (task.StepsOf)
	// splits responses: its step ranges are what the PRM was trained on.
	Task string `json:"task,omitempty"`
	// Separator splits responses when Task is empty or labels no steps
	// (empty: DefaultSeparator).
	Separator string `json:"separator"`
}

// InfoFile is the PRM folder's description file.
const InfoFile = "prm.json"

// Splitter returns the step splitter Info describes: the task's
// registered step labeler, found by name without building the task, else
// the separator. An unknown task is an error.
func (in Info) Splitter() (Splitter, error) {
	if in.Task != "" {
		if l, ok := task.StepsOf(in.Task); ok {
			return LabelerSplitter(l), nil
		}
		if !slices.Contains(task.Names(), in.Task) {
			return nil, fmt.Errorf("prm step splitter: unknown task %q (known: %s)", in.Task, strings.Join(task.Names(), ", "))
		}
	}
	sep := in.Separator
	if sep == "" {
		sep = DefaultSeparator
	}
	return SeparatorSplitter(sep), nil
}

// PRM is a process reward model: a scoring model, its own tokenizer and
// a step splitter. Context bounds the PRM tokens of one rendered
// response (0: no bound). A PRM is not safe for concurrent use (its model
// is not).
type PRM struct {
	Model   Scorer
	Tok     tokenizer.Tokenizer
	Split   Splitter
	Info    Info
	Context int
	// Batch is the number of sequences per model call when scoring many
	// responses or re-scoring for ExactInfluence (0: 64). Influence always
	// makes one call for its whole batch.
	Batch int
}

var _ credit.Influencer = (*PRM)(nil)

// New wraps a scoring model and its tokenizer into a PRM whose steps Info
// describes.
func New(m *model.Model, tok tokenizer.Tokenizer, info Info) (*PRM, error) {
	if m.Config.NumLabels < 1 {
		return nil, fmt.Errorf("prm: the model has no scoring head (num_labels is 0)")
	}
	if tok.VocabSize() > m.Config.VocabSize {
		return nil, fmt.Errorf("prm: the tokenizer has %d tokens but the model only %d", tok.VocabSize(), m.Config.VocabSize)
	}
	split, err := info.Splitter()
	if err != nil {
		return nil, err
	}
	return &PRM{Model: m, Tok: tok, Split: split, Info: info, Context: m.Config.MaxPositionEmbeddings}, nil
}

// Load reads a PRM folder: the model files, the tokenizer and InfoFile.
func Load(dir string) (*PRM, error) {
	data, err := boundedread.ReadFile(filepath.Join(dir, InfoFile), boundedread.Settings)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("load prm: %s has no %s: it is not a PRM folder", dir, InfoFile)
	}
	if err != nil {
		return nil, fmt.Errorf("load prm: %w", err)
	}
	var info Info
	if err := json.Unmarshal(data, &info); err != nil {
		return nil, fmt.Errorf("load prm: parse %s: %w", filepath.Join(dir, InfoFile), err)
	}
	tok, err := tokenizer.Load(dir)
	if err != nil {
		return nil, fmt.Errorf("load prm %s: %w", dir, err)
	}
	m, err := hf.Load(dir)
	if err != nil {
		return nil, fmt.Errorf("load prm: %w", err)
	}
	p, err := New(m, tok, info)
	if err != nil {
		return nil, fmt.Errorf("load prm %s: %w", dir, err)
	}
	return p, nil
}

// Save writes the PRM into dir through a temporary sibling folder and a
// rename (policy.ReplaceDir), so dir holds the old PRM or the new one.
// extra files (name → JSON value) are written alongside, such as a
// training report. The model must be a *model.Model (model/hf writes it).
func (p *PRM) Save(dir string, extra map[string]any) error {
	m, ok := p.Model.(*model.Model)
	if !ok {
		return fmt.Errorf("save prm: the scoring model is a %T, which cannot save itself (a *model.Model can)", p.Model)
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("save prm: %w", err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp*")
	if err != nil {
		return fmt.Errorf("save prm: %w", err)
	}
	errs := []error{hf.Save(m, tmp), p.Tok.Save(tmp), run.WriteJSON(filepath.Join(tmp, InfoFile), p.Info)}
	for name, v := range extra {
		errs = append(errs, run.WriteJSON(filepath.Join(tmp, name), v))
	}
	if err := errors.Join(errs...); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("save prm: %w", err)
	}
	return policy.ReplaceDir(tmp, dir)
}

func (p *PRM) batch() int {
	if p.Batch > 0 {
		return p.Batch
	}
	return 64
}
