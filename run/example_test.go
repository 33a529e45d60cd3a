package run_test

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"

	"github.com/credo-rl/credo/run"
)

// A trainer appends one Metrics line per step; a resumed run reopens the
// log cut back to its checkpoint.
func ExampleOpenMetrics() {
	dir, _ := os.MkdirTemp("", "run-example")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, run.MetricsFile)

	log, _ := run.OpenMetrics(path, 0) // a fresh run
	for step := 1; step <= 3; step++ {
		log.Append(run.Metrics{run.KeyStep: float64(step), run.RewardKey("format", "mean"): float64(step) / 2})
	}
	resumed, err := run.OpenMetrics(path, 2) // the checkpoint is at step 2
	fmt.Println(resumed.Len(), err)

	// A gap is an error naming the file and the line; the file is kept.
	os.WriteFile(path, []byte("{\"step\":1}\n{\"step\":3}\n"), 0o644)
	_, err = run.OpenMetrics(path, 2)
	fmt.Println(strings.TrimPrefix(err.Error(), dir+string(filepath.Separator)))
	// Output:
	// 2 <nil>
	// metrics.jsonl line 2: step 3 follows step 1: step 2 is missing (the file is left as it is: repair or restore it, or start a new run)
}

// A value JSON cannot hold is written as null and read back as absent.
func ExampleMetrics() {
	line, _ := json.Marshal(run.Metrics{run.KeyStep: 4, "loss/kl": math.NaN(), run.KeyTimeStep: 1.5})
	fmt.Println(string(line))
	var back run.Metrics
	err := json.Unmarshal(line, &back)
	fmt.Println(back.Step(), len(back), err)
	// Output:
	// {"loss/kl":null,"step":4,"time/step":1.5}
	// 4 2 <nil>
}

// Diff names what differs between saved settings and new ones.
func ExampleDiff() {
	saved := map[string]any{"steps": 30, "optimizer": map[string]any{"lr": 2e-4}}
	now := map[string]any{"steps": 30, "optimizer": map[string]any{"lr": 1e-3}}
	changes, _ := run.Diff(saved, now)
	fmt.Println(changes)
	// Output:
	// [optimizer.lr: 0.0002 before, 0.001 now]
}
