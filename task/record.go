package task

import "github.com/credo-rl/credo/reward"

// RecordReader is an optional capability of tasks whose verifiers also
// judge prompts made from a public dataset's records (IFEval's
// input_data.jsonl, BFCL's questions with their possible answers, GSM8K's
// lines), so that a trainer with its own data can use them (the service's
// /v1/verify). Find it by type assertion. A record reader that is not a
// task (a folder of SQLite databases for text-to-SQL records) has the same
// methods.
type RecordReader interface {
	// RecordFormat names the format: "ifeval", "bfcl", "gsm8k", "sql".
	RecordFormat() string
	// FromRecord turns one record, a JSON object, into a prompt whose Ref
	// the RecordRewards read. Keys the format does not use are ignored
	// (dataset rows carry other columns); a malformed record is an error,
	// never a panic. The prompt's ID is the record's own id where it has
	// one, else empty.
	FromRecord(record []byte) (Prompt, error)
	// RecordRewards lists the verifiers of such prompts, in reward order.
	RecordRewards() []reward.Verifier
}
