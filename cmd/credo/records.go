package main

import (
	"strings"

	"github.com/credo-rl/credo/cmd/credo/internal/cli"
	"github.com/credo-rl/credo/lab"
	"github.com/credo-rl/credo/task/records"
)

// recordSettings are the settings of a records file as a run's task
// (records.Source), by their keys in a run's config.json.
func recordSettings() []cli.Setting {
	return []cli.Setting{
		{Key: "records", Flag: "records", Usage: "use a file of records as the task instead of --task: JSON Lines in --format (sql: records.jsonl beside its databases, or that folder); see docs/records.md"},
		{Key: "format", Flag: "format", Usage: "the records' format: " + strings.Join(records.Formats(), ", ")},
		{Key: "test_fraction", Flag: "test-fraction", Usage: "share of records held out as the test split, chosen by a hash of each record (0: 0.2)"},
		{Key: "strict_records", Flag: "strict-records", Usage: "refuse a records file with a malformed record (default: skip it, reporting its line)"},
	}
}

// verifierUsage is --verifier's help.
const verifierUsage = "add a reward judged by your own program over HTTP: name=…,url=http://127.0.0.1:PORT/…[,timeout=…,retries=…,weight=…] (repeatable; examples/verifier.py, docs/records.md)"

// recordFlags are recordSettings for a command without a config struct
// of its own (eval), bound to s.
func recordFlags(fs *cli.Flags, s *records.Source) {
	fs.StringVar(&s.Records, "records", "", recordSettings()[0].Usage)
	fs.StringVar(&s.Format, "format", "", recordSettings()[1].Usage)
	fs.Float64Var(&s.TestFraction, "test-fraction", 0, recordSettings()[2].Usage)
	fs.BoolVar(&s.StrictRecords, "strict-records", false, recordSettings()[3].Usage)
}

// sameRecords gives a comparison's warm-ups the training's records file
// (from --records or --train-config), pinned to its digest, and names
// both tasks after it.
func sameRecords(c lab.CompareConfig) lab.CompareConfig {
	if c.Train.Records != "" {
		// A file that cannot be read fails when the task is built, saying why.
		c.Train.Source, _ = records.Pin(c.Train.Source)
		c.Warmup.Source = c.Train.Source
		c.Train.Task = records.TaskName(c.Train.Format)
		c.Warmup.Task = c.Train.Task
	}
	return c
}
