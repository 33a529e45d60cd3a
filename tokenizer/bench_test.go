package tokenizer

import (
	"os"
	"runtime"
	"testing"
	"time"
)

// gsm8kQuestions returns the GSM8K test questions and their total size.
func gsm8kQuestions(b *testing.B) ([]string, int64) {
	qs := readField(b, qwen3Dir(b)+"/../../gsm8k/test.jsonl", "question")
	var n int64
	for _, q := range qs {
		n += int64(len(q))
	}
	return qs, n
}

func benchmarkEncode(b *testing.B, tok Tokenizer) {
	qs, n := gsm8kQuestions(b)
	for _, q := range qs { // warm the word cache, as in training
		tok.Encode(q)
	}
	b.SetBytes(n)
	cpu := startCPU()
	for b.Loop() {
		for _, q := range qs {
			tok.Encode(q)
		}
	}
	cpu.report(b, n)
}

// cpuClock measures the benchmark goroutine's thread CPU time, reported as
// "cpu-MB/s" next to the wall-clock MB/s: on a loaded machine the wall clock
// counts the time spent waiting for a core.
type cpuClock struct {
	start time.Duration
	ok    bool
}

func startCPU() cpuClock {
	runtime.LockOSThread()
	t, ok := threadCPU()
	return cpuClock{t, ok}
}

func (c cpuClock) report(b *testing.B, bytesPerOp int64) {
	defer runtime.UnlockOSThread()
	end, ok := threadCPU()
	if !c.ok || !ok || end <= c.start {
		return
	}
	b.ReportMetric(float64(bytesPerOp)*float64(b.N)/(end-c.start).Seconds()/1e6, "cpu-MB/s")
}

// BenchmarkEncodeQwen3GSM8K encodes every GSM8K test question (MB/s of text).
func BenchmarkEncodeQwen3GSM8K(b *testing.B) { benchmarkEncode(b, loadQwen3(b)) }

// BenchmarkEncodeBytesGSM8K is the same for the byte-level tokenizer.
func BenchmarkEncodeBytesGSM8K(b *testing.B) {
	tok, err := NewBytes()
	if err != nil {
		b.Fatal(err)
	}
	benchmarkEncode(b, tok)
}

// BenchmarkEncodeQwen3GSM8KCold encodes with an empty word cache each time.
func BenchmarkEncodeQwen3GSM8KCold(b *testing.B) {
	tok := loadQwen3(b)
	qs, n := gsm8kQuestions(b)
	b.SetBytes(n)
	cpu := startCPU()
	for b.Loop() {
		tok.cache.reset()
		for _, q := range qs {
			tok.Encode(q)
		}
	}
	cpu.report(b, n)
}

// BenchmarkLoadQwen3 parses the 11 MB tokenizer.json; cpu-ms/op is the CPU
// time of all the process's threads (the merges decode in parallel, and the
// garbage collector runs beside).
func BenchmarkLoadQwen3(b *testing.B) {
	data, err := os.ReadFile(qwen3Dir(b) + "/tokenizer.json")
	if err != nil {
		b.Fatal(err)
	}
	start, ok := processCPU()
	for b.Loop() {
		if _, err := ParseBPE(data, nil); err != nil {
			b.Fatal(err)
		}
	}
	if end, ok2 := processCPU(); ok && ok2 {
		b.ReportMetric(float64((end-start).Milliseconds())/float64(b.N), "cpu-ms/op")
	}
}
