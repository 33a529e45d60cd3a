package prm

import (
	"context"
	"fmt"
	"sort"

	"github.com/credo-rl/credo/task"
)

// Metrics are step-label metrics on a set of labelled responses.
type Metrics struct {
	Steps    int     `json:"steps"`    // labelled steps scored
	Positive float64 `json:"positive"` // share of correct steps (the majority baseline is max(p, 1−p))
	// Accuracy is the share of steps whose prediction (logit > 0) matches
	// the label.
	Accuracy float64 `json:"accuracy"`
	// AUC is the ROC area of the logits against the labels; nil when one
	// class is missing.
	AUC *float64 `json:"auc,omitempty"`
}

func (m Metrics) String() string {
	auc := "n/a"
	if m.AUC != nil {
		auc = fmt.Sprintf("%.3f", *m.AUC)
	}
	return fmt.Sprintf("accuracy %.3f, AUC %s over %d steps (%.0f%% correct)", m.Accuracy, auc, m.Steps, 100*m.Positive)
}

// EvalReport holds the metrics of a whole set and of each Kind in it.
type EvalReport struct {
	All    Metrics            `json:"all"`
	ByKind map[string]Metrics `json:"by_kind"`
	// Skipped counts responses longer than the PRM's context.
	Skipped int `json:"skipped"`
}

// Evaluate scores every labelled step of exs (at the token holding the
// step's last byte) and reports accuracy and ROC AUC, overall and by kind.
func (p *PRM) Evaluate(ctx context.Context, exs []Labeled) (EvalReport, error) {
	logits, skipped, err := p.scoreLabeled(ctx, exs)
	if err != nil {
		return EvalReport{}, err
	}
	type acc struct {
		s []float64
		l []bool
	}
	all := &acc{}
	kinds := map[string]*acc{}
	for i, ex := range exs {
		if logits[i] == nil {
			continue
		}
		k := kinds[ex.Kind]
		if k == nil {
			k = &acc{}
			kinds[ex.Kind] = k
		}
		for j, st := range nonEmpty(ex.Steps) {
			for _, a := range []*acc{all, k} {
				a.s = append(a.s, logits[i][j])
				a.l = append(a.l, st.Correct)
			}
		}
	}
	rep := EvalReport{All: metrics(all.s, all.l), ByKind: map[string]Metrics{}, Skipped: skipped}
	names := make([]string, 0, len(kinds))
	for n := range kinds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		rep.ByKind[n] = metrics(kinds[n].s, kinds[n].l)
	}
	return rep, nil
}

func metrics(s []float64, l []bool) Metrics {
	m := Metrics{Steps: len(s)}
	if len(s) == 0 {
		return m
	}
	var pos, right int
	for i := range s {
		if l[i] {
			pos++
		}
		if (s[i] > 0) == l[i] {
			right++
		}
	}
	m.Positive = float64(pos) / float64(len(s))
	m.Accuracy = float64(right) / float64(len(s))
	if a, err := AUC(s, l); err == nil {
		m.AUC = &a
	}
	return m
}

// nonEmpty drops empty steps, as encode does.
func nonEmpty(steps []task.Step) []task.Step {
	out := make([]task.Step, 0, len(steps))
	for _, s := range steps {
		if s.End > s.Start {
			out = append(out, s)
		}
	}
	return out
}

// scoreLabeled returns each example's step logits (nil for one longer
// than the context, counted in skipped), in batches of p.batch().
func (p *PRM) scoreLabeled(ctx context.Context, exs []Labeled) (logits [][]float64, skipped int, err error) {
	encs := make([]encoded, len(exs))
	var seqs [][]int32
	var which []int
	for i, ex := range exs {
		e, err := p.encode(ex.Prompt, ex.Response, stepRanges(ex.Steps))
		if err != nil {
			if p.Context > 0 && len(e.ids) > p.Context {
				skipped++
				continue
			}
			return nil, 0, fmt.Errorf("evaluate: example %d: %w", i, err)
		}
		encs[i] = e
		seqs, which = append(seqs, e.ids), append(which, i)
	}
	logits = make([][]float64, len(exs))
	for lo := 0; lo < len(seqs); lo += p.batch() {
		hi := min(lo+p.batch(), len(seqs))
		scores, err := p.Model.Scores(ctx, seqs[lo:hi])
		if err != nil {
			return nil, 0, fmt.Errorf("evaluate: %w", err)
		}
		for j, s := range scores {
			i := which[lo+j]
			logits[i] = stepLogits(s, encs[i].ends)
		}
	}
	return logits, skipped, nil
}

// stepRanges are the byte ranges of labelled steps.
func stepRanges(steps []task.Step) [][2]int {
	out := make([][2]int, len(steps))
	for i, s := range steps {
		out[i] = [2]int{s.Start, s.End}
	}
	return out
}
