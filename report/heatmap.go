package report

import (
	"cmp"
	"fmt"
	"html/template"
	"slices"
	"strconv"
	"strings"

	"github.com/credo-rl/credo/report/plot"
	"github.com/credo-rl/credo/reward"
)

// rolloutView is one logged rollout rendered token by token.
type rolloutView struct {
	Method     string
	Color      string
	Seed       uint64
	Step       int // 1-based, as the charts count
	Index      int
	Prompt     string
	Tokens     int
	Shown      int    // tokens rendered (at most maxTokens)
	Advantage  string // short, for the header
	AdvExact   string // exact, for the hover
	TokenLevel bool
	Rows       []tokenRow
	Verdicts   []verdictView
}

// tokenRow is the response once, coloured by one quantity.
type tokenRow struct {
	Label string
	Note  string
	HTML  template.HTML
}

type verdictView struct {
	Reward, Score, Reason, Info, Spans string
	Skip                               bool
}

// Rollout selection: a few per token-level method, one per other method
// (for contrast), at most maxRollouts in all.
const (
	perTokenMethod = 3
	perOtherMethod = 1
	maxRollouts    = 12
	// maxTokens caps the tokens shown per response, keeping the page small
	// for long responses.
	maxTokens = 400
)

// pick chooses, for each method, rollouts of the last logged step of its
// first run (in listed order) that has samples: informative ones first
// (advantages that are not all zero), then by index.
func pick(c *Comparison) []rolloutView {
	type cand struct {
		run     *Run
		samples []Sample
		token   bool
	}
	var cands []cand
	for _, m := range c.Methods {
		for _, r := range c.MethodRuns(m) {
			if len(r.Samples) == 0 {
				continue
			}
			lastStep := slices.MaxFunc(r.Samples, func(a, b Sample) int { return cmp.Compare(a.Step, b.Step) }).Step
			// A method is token-level if it logged relevance anywhere: at
			// the last step every pair may have been skipped.
			var ss []Sample
			token := false
			for _, s := range r.Samples {
				if s.Step == lastStep {
					ss = append(ss, s)
				}
				token = token || len(s.Relevance) > 0
			}
			slices.SortStableFunc(ss, func(a, b Sample) int {
				if ia, ib := informative(a), informative(b); ia && !ib {
					return -1
				} else if ib && !ia {
					return 1
				}
				return cmp.Compare(a.Index, b.Index)
			})
			cands = append(cands, cand{r, ss, token})
			break
		}
	}
	// One each first so that every method is shown, then the rest.
	take := make([]int, len(cands))
	total := 0
	for round := 0; round < perTokenMethod && total < maxRollouts; round++ {
		for i, cd := range cands {
			limit := perOtherMethod
			if cd.token {
				limit = perTokenMethod
			}
			if take[i] == round && round < limit && round < len(cd.samples) && total < maxRollouts {
				take[i]++
				total++
			}
		}
	}
	var out []rolloutView
	for i, cd := range cands {
		color := plot.Color(slices.Index(c.Methods, cd.run.Method))
		for _, s := range cd.samples[:take[i]] {
			out = append(out, renderRollout(cd.run, color, s, cd.token))
		}
	}
	return out
}

// informative says the rollout's advantages are not all zero.
func informative(s Sample) bool {
	return s.Advantage != 0 || slices.ContainsFunc(s.Advantages, func(a float64) bool { return a != 0 })
}

// renderRollout lays out one rollout: a row per reward coloured by its
// relevance q, with that reward's checked tokens underlined, then a row
// coloured by the final token advantage.
func renderRollout(r *Run, color string, s Sample, tokenLevel bool) rolloutView {
	toks := tokenTexts(s)
	v := rolloutView{Method: r.Method, Color: color, Seed: r.Seed, Step: s.Step, Index: s.Index,
		Prompt: s.Prompt, Tokens: len(toks), Shown: min(len(toks), maxTokens), Advantage: strconv.FormatFloat(s.Advantage, 'g', 4, 64), AdvExact: plot.Exact(s.Advantage), TokenLevel: tokenLevel || len(s.Relevance) > 0}
	var names []string
	for _, vd := range s.Verdicts {
		names = append(names, vd.Reward)
		vv := verdictView{Reward: vd.Reward, Score: plot.Exact(vd.Score), Reason: vd.Reason, Info: vd.Info, Skip: vd.Skip}
		var sp []string
		for _, x := range vd.Spans {
			sp = append(sp, fmt.Sprintf("[%d, %d)×%s", x.Start, x.End, plot.Exact(x.Weight())))
		}
		vv.Spans = strings.Join(sp, " ")
		v.Verdicts = append(v.Verdicts, vv)
	}
	var extra []string
	for k := range s.Relevance {
		if !slices.Contains(names, k) {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	names = append(names, extra...)
	for _, k := range names {
		var checked []float64
		if i := slices.IndexFunc(s.Verdicts, func(vd Verdict) bool { return vd.Reward == k }); i >= 0 {
			checked = reward.TokenStrengths(s.Verdicts[i].Spans, s.Offsets)
		}
		q, ok := s.Relevance[k]
		row := tokenRow{Label: "q · " + k}
		switch {
		case ok:
			row.HTML = plot.TokenLine(toks[:min(len(toks), maxTokens)], q, checked, "q", plot.Sequential)
		case v.TokenLevel:
			row.Note = "no relevance: skipped (no variance in its group)"
			row.HTML = plot.TokenLine(toks[:min(len(toks), maxTokens)], nil, checked, "q", plot.Sequential)
		default:
			row.Note = "response-level method: no relevance"
			row.HTML = plot.TokenLine(toks[:min(len(toks), maxTokens)], nil, checked, "q", plot.Sequential)
		}
		v.Rows = append(v.Rows, row)
	}
	adv := tokenRow{Label: "A · final", HTML: plot.TokenLine(toks[:min(len(toks), maxTokens)], s.Advantages, nil, "A", plot.Diverging)}
	if len(s.Advantages) == 0 {
		adv.Note = "not logged"
	}
	v.Rows = append(v.Rows, adv)
	return v
}

// tokenTexts are the rollout's tokens: as logged, or cut from the
// response by the offsets when the texts are missing.
func tokenTexts(s Sample) []string {
	if len(s.Tokens) > 0 || len(s.Offsets) == 0 {
		return s.Tokens
	}
	out := make([]string, len(s.Offsets))
	for i, o := range s.Offsets {
		if 0 <= o[0] && o[0] <= o[1] && o[1] <= len(s.Response) {
			out[i] = s.Response[o[0]:o[1]]
		}
	}
	return out
}
