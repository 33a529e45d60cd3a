// Package arith is the multi-step integer arithmetic task, registered as
// "arith".
//
// A prompt is an expression of 2 to 4 operations (+, -, *) over small
// integers, "Compute (17 + 25) * 3 - 8.", or the same told as a short word
// problem. Every intermediate value stays in 1..999 so a small byte-level
// policy can learn the arithmetic. The response gives one step per line,
// "a op b = c", in the canonical order (a post-order walk of the
// expression, left operand first), then "answer: N":
//
//	17 + 25 = 42
//	42 * 3 = 126
//	126 - 8 = 118
//	answer: 118
//
// The rewards, in order, are answer (information block "Reference answer:
// 118") and format (information block FormatBlock). For the gradient
// method's process reward model, Steps splits a response into steps on
// Separator (one step per line) with exact correctness labels, and
// Task.PRMExamples writes corrupted solutions with those labels.
//
// Train and test problems never share a canonical expression: its hash
// decides the split, whatever the seed. GSM8K records become prompts whose
// answer reward works (GSM8KRecord.Prompt); GSM8KAnswer extracts their
// "#### N" answers.
//
// It imports task and reward.
//
// It needs no GoMLX (go list -deps names none).
package arith
