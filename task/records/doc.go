// Package records makes a task (task.Task) of a file of public benchmark
// records, the formats the service's /v1/verify takes: IFEval's
// input_data.jsonl lines ("ifeval"), GSM8K's lines ("gsm8k"), BFCL
// questions with their ground truth ("bfcl") and text-to-SQL records over a
// folder of SQLite databases ("sql"). The trainer, evaluation, comparison
// and calibration take it like any registered task.
//
// Its rewards are the same verifiers the service runs on such records:
// one per IFEval instruction id present in the file, GSM8K's answer and
// format, BFCL's format and call, SQL's format, executes and result. Each
// reward that the record can say more about gets its information block
// from the record (MRTPO replays without it): for IFEval the prompt's own
// sentences that state the instruction (ifeval.Stated), for BFCL the
// called function's schema, for SQL the database's schema.
//
// The split is fixed by the records themselves: a record is a test prompt
// when the FNV-1a 64-bit hash of its compact JSON line, read as a number
// in [0, 1), is below the test fraction (TestSplit). Malformed records are
// reported by line and skipped, or refused (Options.Strict); none panics.
//
// Demonstrations for supervised warm-up are the records' own references
// (GSM8K's worked answers, BFCL's ground-truth call, SQL's reference
// query); IFEval records have none, and the task says so (task.DemoLacker).
//
// It imports task, reward, internal/boundedread and the task packages
// whose record readers it uses (ifeval, arith, toolcall, sql).
package records
