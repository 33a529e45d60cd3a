package service

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	loadRun     = flag.Bool("load", false, "run TestLoad: the real credo serve binary under 16 concurrent clients")
	loadClients = flag.Int("load.clients", 16, "TestLoad's concurrent clients")
	loadFor     = flag.Duration("load.for", 20*time.Second, "how long TestLoad's clients send requests")
)

// TestLoad builds credo, starts `credo serve` on a free port and has 16
// clients send, for 20 s, a trainer's requests in turn: /v1/verify of 256
// IFEval responses and /v1/advantages (span, packed) of 256 responses ×
// 512 tokens × 4 rewards. It prints each endpoint's p50 and p99 latency,
// the errors (there must be none) and the server's peak RSS (VmHWM). A
// measurement, not a check of speed: run it with
//
//	go test ./service -run TestLoad -load -v
func TestLoad(t *testing.T) {
	if !*loadRun {
		t.Skip("a measurement: go test ./service -run TestLoad -load -v")
	}
	bin := filepath.Join(t.TempDir(), "credo")
	build := exec.Command("go", "build", "-o", bin, "github.com/credo-rl/credo/cmd/credo")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "serve", "--addr", "127.0.0.1:0", "--quiet")
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	base := strings.Fields(strings.TrimPrefix(line, "credo serve: listening on "))[0]
	bodies := map[string][]byte{
		"/v1/verify":     verifyIFEvalBody(t, 256),
		"/v1/advantages": benchBody(&testing.B{}, benchBatch(256, 512, 4, 1), "span", true, nil),
	}
	endpoints := slices.Sorted(func(yield func(string) bool) {
		for k := range bodies {
			if !yield(k) {
				return
			}
		}
	})
	var mu sync.Mutex
	lat := map[string][]time.Duration{}
	errs := 0
	stop := time.Now().Add(*loadFor)
	var wg sync.WaitGroup
	for c := range *loadClients {
		wg.Go(func() {
			for r := c; time.Now().Before(stop); r++ {
				ep := endpoints[r%len(endpoints)]
				start := time.Now()
				resp, err := http.Post(base+ep, "application/json", bytes.NewReader(bodies[ep]))
				ok := err == nil && resp.StatusCode == 200
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				mu.Lock()
				lat[ep] = append(lat[ep], time.Since(start))
				if !ok {
					errs++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	status, _ := os.ReadFile(fmt.Sprintf("/proc/%d/status", cmd.Process.Pid))
	for _, ep := range endpoints {
		d := lat[ep]
		slices.Sort(d)
		t.Logf("%-15s %4d requests  p50 %7.1f ms  p99 %7.1f ms", ep, len(d), ms(d[len(d)/2]), ms(d[len(d)*99/100]))
	}
	for _, l := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(l, "VmHWM") {
			t.Logf("server peak RSS: %s", strings.TrimSpace(strings.TrimPrefix(l, "VmHWM:")))
		}
	}
	t.Logf("%d clients for %v: %d errors (bodies: verify %d kB, advantages %d kB)", *loadClients, *loadFor, errs,
		len(bodies["/v1/verify"])>>10, len(bodies["/v1/advantages"])>>10)
	if errs > 0 {
		t.Errorf("%d requests failed", errs)
	}
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// verifyIFEvalBody is a verify request of n responses to IFEval records.
func verifyIFEvalBody(t *testing.T, n int) []byte {
	var items []any
	for _, line := range lines(t, "ifeval/input_data.jsonl")[:n/8] {
		var resps []string
		for v := range 8 {
			resps = append(resps, fmt.Sprintf("Response %d, with a comma. SECTION 1\n* a\n* b\n\nP.S. the end", v))
		}
		items = append(items, map[string]any{"record": json.RawMessage(line), "responses": resps})
	}
	return []byte(mustJSON(map[string]any{"format": "ifeval", "items": items}))
}
