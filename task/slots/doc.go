// Package slots is the controlled credit-assignment task, registered as
// "slots": several independent rewards, each decided by its own region of
// the response, with the bytes each reward depends on known exactly.
//
// A prompt lists K sums to work out, one per line; the response answers
// each on its own line, in order:
//
//	Add each pair, one line each:      3+4=7
//	3+4                                7+2=9
//	7+2                                5+5=10
//	5+5                                1+8=9
//	1+8
//
// Reward k (named "slot1" … "slotK") is 1 when line k of the response is
// exactly "a+b=c" with the prompt's k-th operands and their sum, else 0.
// Nothing else in the response matters to it, so line k is reward k's
// whole region (Task.Regions, the ground truth for localization), and the
// verifier's span is the sum's digits on that line, where the decision is
// made. Its information block is "Reference k: a+b=c".
//
// Difficulty settings (task.Difficulty): slots (K, default 4), max (the
// largest operand, default 9) and strict (default 1; 0 accepts any correct
// sum on line k, so the policy need not learn to copy the prompt's
// operands: a warm-up of minutes instead of half an hour). Warm-up demonstrations break each slot
// independently with the flaw rate of its reward (an answer off by 1 or 2),
// so a warmed-up policy knows the sums but slips at about that rate: the
// flaw rate sets where each reward starts, and every reward is learnable
// from there. A demonstration never slips on a slot whose block its prompt
// carries, so the policy learns that a block tells the answer (what replay
// relies on).
//
// It is the setting in which token-level credit should help most: with
// sequence-level credit, every other slot's outcome is noise on the
// advantage of slot k's tokens.
//
// It imports task and reward.
//
// It needs no GoMLX (go list -deps names none).
package slots
