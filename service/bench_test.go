package service

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/credit/topk"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/sql"
)

// benchBatch is docs/SERVICE.md §10's batch: n responses in groups of 8,
// T tokens each, K rewards whose scores are 0 or 1 and vary in a share
// vary of the (group, reward) pairs, verdicts with a block and two spans.
func benchBatch(n, T, K int, vary float64) recorded {
	r := rand.New(rand.NewPCG(1, 2))
	b := &credit.Batch{Groups: make([]int, n), Scores: make([][]float64, K), Verdicts: make([][]reward.Verdict, K),
		Rewards: make([]string, K), Prompts: make([]string, n), Responses: make([]string, n),
		Tokens: make([][]int32, n), Offsets: make([][][2]int, n), Step: 20}
	for i := range n {
		b.Groups[i] = i / 8
		b.Prompts[i] = fmt.Sprintf("Question %d: a prompt of about the length of a real one, asking for something specific.", i/8)
		var text strings.Builder
		for t := range T {
			start := text.Len()
			text.WriteString(pieces[(i+t)%len(pieces)])
			b.Tokens[i] = append(b.Tokens[i], int32(r.IntN(150_000)))
			b.Offsets[i] = append(b.Offsets[i], [2]int{start, text.Len()})
		}
		b.Responses[i] = text.String()
	}
	for k := range K {
		b.Rewards[k] = fmt.Sprintf("reward%d", k)
		b.Scores[k] = make([]float64, n)
		b.Verdicts[k] = make([]reward.Verdict, n)
		for g := 0; g < n; g += 8 {
			varies := r.Float64() < vary
			for i := g; i < min(g+8, n); i++ {
				s := 1.0
				if varies && (i == g || r.IntN(2) == 0) {
					s = 0
				}
				L := len(b.Responses[i])
				a := r.IntN(L)
				b.Scores[k][i] = s
				b.Verdicts[k][i] = reward.Verdict{Score: s, Info: fmt.Sprintf("Reward %d's block: the reference for group %d.", k, g),
					Spans: []reward.Span{{Start: a, End: min(L, a+20)}, {Start: L / 2, End: L/2 + 3}}}
			}
		}
	}
	return recorded{b: b}
}

func benchBody(b *testing.B, rec recorded, method string, packed bool, answers []topk.Answer) []byte {
	w := wireBody(rec, method, map[string]any{"replay_warmup_steps": 0}, packed, answers, false)
	delete(w, "return_relevance")
	body, err := json.Marshal(w)
	if err != nil {
		b.Fatal(err)
	}
	return body
}

// BenchmarkAdvantages is /v1/advantages in the server, from the request's
// bytes to the answer's (decode, credit, encode), on 1,024 responses × 512
// tokens × 4 rewards, every (group, reward) varying: arrays as JSON or
// packed (base64) both ways. "credit" is the method alone, in process.
func BenchmarkAdvantages(b *testing.B) {
	rec := benchBatch(1024, 512, 4, 1)
	s, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for _, method := range []string{"span", "gdpo"} {
		for _, packed := range []bool{false, true} {
			body := benchBody(b, rec, method, packed, nil)
			name := fmt.Sprintf("%s/json", method)
			if packed {
				name = fmt.Sprintf("%s/packed", method)
			}
			b.Run(name, func(b *testing.B) {
				serveBench(b, s.advantages, body)
			})
		}
		b.Run(method+"/credit", func(b *testing.B) {
			m, _ := credit.New(method, credit.DefaultConfig())
			cpu := processCPU()
			for b.Loop() {
				if _, _, err := m.Advantages(context.Background(), rec.b); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
		})
	}
}

// BenchmarkAdvantagesMRTPO is mrtpo with top-20 replay answers (packed)
// on the same batch, a share of its (group, reward) pairs varying: 0.2 is
// about the MRTPO paper's 12–21% of pairs replayed.
func BenchmarkAdvantagesMRTPO(b *testing.B) {
	s, err := New(Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	for _, vary := range []float64{0.2, 0.5} {
		rec := benchBatch(1024, 512, 4, vary)
		c := credit.DefaultConfig()
		plan, err := credit.PlanReplay("mrtpo", c, rec.b)
		if err != nil {
			b.Fatal(err)
		}
		body := benchBody(b, rec, "mrtpo", true, answersFor(plan, 20))
		b.Run(fmt.Sprintf("vary=%g/requests=%d", vary, len(plan.Requests)), func(b *testing.B) {
			serveBench(b, s.advantages, body)
		})
	}
}

// serveBench runs one endpoint on body b.N times, reporting bytes/s and
// CPU time per request.
func serveBench(b *testing.B, endpoint func(context.Context, []byte) ([]byte, error), body []byte) {
	b.SetBytes(int64(len(body)))
	cpu := processCPU()
	for b.Loop() {
		if _, err := endpoint(context.Background(), body); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu)
}

// processCPU is the process's user and system CPU time: on a shared
// machine it measures the work, where wall time also measures the
// neighbours.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return -1
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds cpu-ms/op, the CPU time (all threads) per operation
// since start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(processCPU()-start)/1e6/float64(b.N), "cpu-ms/op")
}

// verifyBodies builds, per format, a verify request of about n responses
// from the shared data (IFEval records, BFCL cases, GSM8K lines) and, for
// sql, records over a folder holding the sql task's database, each
// response's query a distinct one (no answer comes from the cache).
func verifyBodies(b *testing.B, n int) (map[string][]byte, Options, func()) {
	bodies := map[string][]byte{}
	var items []any
	for i, line := range lines(&testing.T{}, "ifeval/input_data.jsonl") {
		var rec map[string]any
		json.Unmarshal([]byte(line), &rec)
		p := rec["prompt"].(string)
		items = append(items, map[string]any{"record": json.RawMessage(line), "responses": []string{
			p, strings.ToUpper(p), strings.ToLower(p) + " P.S. done", fmt.Sprintf("<<Title %d>>\n\n%s\n\n***\n\n%s", i, p, p),
			`{"answer": "` + strings.Repeat("word ", 40) + `"}`, "* one\n* two\n* three\n\n" + p, p + "\n\nIs there anything else I can help with?", strings.Repeat(p+" ", 3)}})
	}
	bodies["ifeval"] = verifyBody(b, "ifeval", items, n)
	items = nil
	for _, name := range []string{"BFCL_v4_simple_python.json", "BFCL_v4_multiple.json"} {
		qs, as := lines(&testing.T{}, "bfcl/"+name), lines(&testing.T{}, "bfcl/possible_answer/"+name)
		for i := range qs {
			var ans map[string]json.RawMessage
			json.Unmarshal([]byte(as[i]), &ans)
			rec := json.RawMessage(strings.TrimSuffix(strings.TrimSpace(qs[i]), "}") + `, "ground_truth": ` + string(ans["ground_truth"]) + "}")
			var gt []map[string]map[string][]any
			json.Unmarshal(ans["ground_truth"], &gt)
			var resps []string
			for fn, params := range gt[0] {
				for v := range 8 {
					args := map[string]any{}
					for k, vals := range params {
						if len(vals) > 0 && vals[0] != "" {
							args[k] = vals[v%len(vals)]
						}
					}
					call, _ := json.Marshal(map[string]any{"name": fn, "arguments": args})
					resps = append(resps, fmt.Sprintf("<think>plan %d</think><tool_call>%s</tool_call>", v, call))
				}
			}
			items = append(items, map[string]any{"record": rec, "responses": resps})
		}
	}
	bodies["toolcall"] = verifyBody(b, "bfcl", items, n)
	items = nil
	for _, line := range lines(&testing.T{}, "gsm8k/test.jsonl") {
		var rec map[string]string
		json.Unmarshal([]byte(line), &rec)
		resps := []string{rec["answer"]}
		for v := range 7 {
			resps = append(resps, fmt.Sprintf("%d + %d = %d\n%d * 2 = %d\nanswer: %d", v, v, 2*v, 2*v, 4*v, 4*v))
		}
		items = append(items, map[string]any{"record": rec, "responses": resps})
	}
	bodies["arith"] = verifyBody(b, "gsm8k", items, n)
	dir := b.TempDir()
	st, err := sql.Open(task.Config{Seed: 6, Dir: dir}, sql.Options{})
	if err != nil {
		b.Fatal(err)
	}
	folder, err := sql.OpenFolder(dir, sql.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for round := range sqlRounds { // each round's queries are new to the server's cache
		items = nil
		for i := range n / 8 {
			q := st.Prompt(task.Train, i).Ref.(sql.Ref).Query
			var resps []string
			for v := range 8 {
				resps = append(resps, fmt.Sprintf("<think>x</think><answer>SELECT * FROM (%s) LIMIT %d</answer>", q, 1000+round*n+8*i+v))
			}
			items = append(items, map[string]any{"record": map[string]any{"db_id": "sql-6", "query": q}, "responses": resps})
		}
		bodies[fmt.Sprintf("sql%d", round)] = verifyBody(b, "sql", items, n)
	}
	return bodies, Options{Records: []task.RecordReader{folder}}, func() { folder.Close(); st.Close() }
}

// verifyBody is a verify request of the format's items, repeated or cut
// to about n responses.
func verifyBody(b *testing.B, format string, items []any, n int) []byte {
	var out []any
	count := 0
	for count < n {
		for _, it := range items {
			if count >= n {
				break
			}
			out = append(out, it)
			count += len(it.(map[string]any)["responses"].([]string))
		}
	}
	body, err := json.Marshal(map[string]any{"format": format, "items": out})
	if err != nil {
		b.Fatal(err)
	}
	return body
}

// sqlRounds is how many sql requests with queries new to the cache
// BenchmarkVerify cycles through (run it with at most 60 iterations in all, -count included, so
// that no response's query is answered from the cache; the reference
// queries are, after each prompt's first response, as in training).
const sqlRounds = 64

// BenchmarkVerify is /v1/verify in the server (decode, verdicts, encode)
// on about 4,096 responses per request; responses/s is wall time,
// cpu-responses/s the same per CPU second.
func BenchmarkVerify(b *testing.B) {
	bodies, o, done := verifyBodies(b, 4096)
	defer done()
	s, err := New(o)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	round := 0 // the next sql round, across -count's runs
	for _, format := range []string{"ifeval", "toolcall", "arith", "sql"} {
		b.Run(format, func(b *testing.B) {
			key := format
			if format == "sql" {
				key = "sql0"
			}
			var req verifyRequest
			if req, err = decodeVerify(bodies[key]); err != nil {
				b.Fatal(err)
			}
			n := 0
			for _, it := range req.items {
				n += len(it.responses)
			}
			start, cpu := time.Now(), processCPU()
			for b.Loop() {
				if format == "sql" {
					key, round = fmt.Sprintf("sql%d", round%sqlRounds), round+1
				}
				if _, err := s.verify(context.Background(), bodies[key]); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n*b.N)/time.Since(start).Seconds(), "responses/s")
			b.ReportMetric(float64(n*b.N)/(float64(processCPU()-cpu)/1e9), "cpu-responses/s")
		})
	}
}
