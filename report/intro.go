package report

import (
	"fmt"
)

// taskIntros say in a sentence what each built-in task asks and what its
// rewards check (the tasks' package docs have the details).
var taskIntros = map[string]string{
	"slots": "The controlled task slots: each prompt lists sums of two operands, the response answers each on its own line, " +
		"and reward slotk is 1 when line k is exactly a+b=c with the prompt's k-th operands. Only line k decides reward k, " +
		"so where each reward's credit belongs is known exactly: the setting in which per-token credit should help most.",
	"toolcall": "Tool calling: the prompt offers a few tools and a user request; the response thinks briefly and makes one call. " +
		"format is 1 when the tags and the call's JSON shape are right, call when the call matches the reference under the Berkeley Function Calling Leaderboard's rules.",
	"sql": "Text to SQL: questions about a small shop database, answered with one SELECT. format checks the tags and a non-empty answer, " +
		"executes that the query runs in the sandbox, result that its rows equal the reference query's.",
	"ifeval": "Instruction following: a short writing request under 2 to 6 verifiable constraints of eight kinds (IFEval's checkers); " +
		"each kind is its own reward and does not apply to prompts without it.",
	"arith": "Multi-step integer arithmetic, answered one step per line and then \"answer: N\": answer checks the number, format the layout.",
}

// goodResult says what the table should show when per-token credit works.
const goodResult = "What a good result looks like: a token-level method (span, mrtpo, p2t) whose ΔAUC on the headline row " +
	"(each method's mean over the counted rewards) is positive against both baselines and marked (its interval excludes 0 after Holm's correction), " +
	"with the same sign on every warm-up; fewer steps to the criterion than the baselines (a ratio below 1); a final evaluation at least theirs; " +
	"and few regressions of a reward that already passed while another is learned. GRPO and GDPO should tie with each other. " +
	"With one seed the table shows what happened, not which method is better."

// intro is the page's opening: the task, its difficulty, what a good
// result looks like, the warm-ups' block diagnostic where they have one,
// and the calibration's focus figures where it has them.
func intro(c *Comparison) []string {
	task, ok := taskIntros[c.Task]
	if !ok {
		task = fmt.Sprintf("Task %s (not a built-in task: its rewards are the columns below).", c.Task)
	}
	if c.Difficulty != "" {
		task += " Difficulty: " + c.Difficulty + "."
	} else {
		task += " Difficulty: the task's defaults."
	}
	out := []string{task, goodResult}
	if b := BlocksNote(c); b != "" {
		out = append(out, b)
	}
	if g := GateNote(c); g != "" {
		out = append(out, g)
	}
	if f := FocusNote(c); f != "" {
		out = append(out, f)
	}
	return out
}

// criterion says what the steps column counts.
func criterion(c *Comparison, l layout) string {
	if l.calibrated {
		return fmt.Sprintf("steps to ½ gap: the first step at which a reward's moving mean over %d steps reaches start + ½(1 − start), from each warm-up's calibration", c.Window)
	}
	return fmt.Sprintf("steps to %s: the first step at which a reward's moving mean over %d steps reaches %s", num(c.Threshold, 2), c.Window, num(c.Threshold, 2))
}
