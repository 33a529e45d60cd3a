// Package ifeval is the instruction-following task: free text under 2 to 6
// constraints, each judged by a checker of one of IFEval's 25 instruction
// ids (google-research instruction_following_eval) with IFEval's keyword
// arguments.
//
// Parse turns an (id, kwargs) pair into a Constraint with its own sentence
// (Text, the reward's information block) and Check, which follows IFEval's
// strict mode and also returns the byte spans of the response the decision
// rests on. FromRecord builds a prompt and its constraints from a record of
// IFEval's input_data.jsonl, and NewVerifier judges such prompts per
// instruction id.
//
// Where IFEval calls NLTK or langdetect, this package uses documented
// approximations: words are \w+ runs (exact), sentences follow a Punkt-like
// rule (countSentences), capitalised words a Treebank-like split
// (wordTokens), and languages a script and stopword heuristic
// (detectLanguage).
//
// The task registered as "ifeval" generates prompts for small policies: a
// request over a small vocabulary of topics ("Write about the sea.")
// followed by 2 to 6 constraints a small model can meet, of eight kinds,
// each its own reward: words (a word-count bound or range), include
// (keywords:existence), forbid (keywords:forbidden_words), end
// (startend:end_checker), lowercase (change_case:english_lowercase),
// no_comma, bullets (an exact number) and title (<<title>>). A prompt
// without a kind gets a skipped verdict for that reward.
//
// A generated prompt states its constraints only as information blocks:
// its Text is task.Compose(request, block of each kind it has, in kind
// order), and a kind's block is the same text its verifier gives as Info.
// Replay (MRTPO) composes the blocks after the request alone (Ref's
// ReplayBase, read through task.ReplayBase), so its "full" prompt is
// exactly the prompt the policy answered and its "without k" prompt states
// nothing of kind k. The alternatives were worse: keeping the constraints
// in the prose and handing replay a second, constraint-free prompt would
// have replayed a prompt the policy never sees in training, and restating
// the constraints as blocks after the prose (as before) made "without k"
// still hold constraint k, so replay removed nothing. Warm-up
// demonstrations use the same layout (see Task.Demos). IFEval's own
// records keep their prose: replay on them composes after the whole prompt.
//
// It imports task and reward.
//
// It needs no GoMLX (go list -deps names none).
package ifeval
