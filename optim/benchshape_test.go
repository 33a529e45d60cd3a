package optim

import (
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/credo-rl/credo/model"
)

// benchVocab is the byte-level vocabulary every benchmark config uses, as
// scripts/bench_torch.py's peers do.
const benchVocab = 268

// benchSizes are the configs a shape may name. 1M and 10M are the Small
// and Medium presets; 40M is only a benchmark config (no preset): Medium's
// shape scaled to hidden 640, FFN 1792, 8 layers, 10 heads of 64, so the
// scaling sweep has a third point without adding a model nobody trains
// here. 135M is SmolLM2-135M's shape (bench135M). scripts/bench_torch.py
// holds the same four.
var benchSizes = map[string]func(vocab int) model.Config{
	"1M":   model.Small,
	"10M":  model.Medium,
	"40M":  bench40M,
	"135M": bench135M,
}

// bench40M has about 40M parameters (40,814,720 with vocabulary 268).
func bench40M(vocab int) model.Config {
	c := model.Medium(vocab)
	c.HiddenSize, c.IntermediateSize, c.NumHiddenLayers = 640, 1792, 8
	c.NumAttentionHeads, c.NumKeyValueHeads = 10, 10
	return c
}

// bench135M is SmolLM2-135M's config as credo import-gguf writes it
// (docs/results/smollm2.md): llama, hidden 576, 30 layers, 9 heads (3
// key/value), FFN 1536, rope θ 100000, tied embeddings, and its own
// 49,152-token vocabulary whatever vocab says (the head is a fifth of the
// model, so a byte vocabulary would be another model), 134.5M parameters.
// There is no preset: nothing here trains it from scratch.
func bench135M(int) model.Config {
	return model.Config{
		ModelType: "llama", VocabSize: 49152, HiddenSize: 576, IntermediateSize: 1536,
		NumHiddenLayers: 30, NumAttentionHeads: 9, NumKeyValueHeads: 3,
		MaxPositionEmbeddings: 8192, RopeTheta: 100000, RMSNormEps: 1e-5,
		TieWordEmbeddings: true, HiddenAct: "silu",
	}
}

// benchShape is one training-step shape: a named config, B sequences of T
// tokens.
type benchShape struct {
	size       string
	batch, seq int
	micro      int // sequences per micro-batch (0: the whole batch at once)
}

// String is the shape as parseBenchShape reads it, so a result names the
// command that reproduces it.
func (s benchShape) String() string {
	v := fmt.Sprintf("size=%s,batch=%d,seq=%d", s.size, s.batch, s.seq)
	if s.micro > 0 {
		v += fmt.Sprintf(",micro=%d", s.micro)
	}
	return v
}

// parseBenchShape reads "size=40M,batch=16,seq=512[,micro=1]"; batch and
// seq default to 16 and 256 (BenchmarkTrainStep's shape), size to 1M;
// micro splits the batch into micro-batches of that many sequences whose
// gradients add up before one AdamW step (the RL trainer's update at 135M
// runs one sequence at a time).
func parseBenchShape(v string) (benchShape, error) {
	s := benchShape{size: "1M", batch: 16, seq: 256}
	for _, kv := range strings.Split(v, ",") {
		k, val, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok {
			return s, fmt.Errorf("shape %q: %q is not key=value", v, kv)
		}
		switch k {
		case "size":
			if _, ok := benchSizes[val]; !ok {
				return s, fmt.Errorf("shape %q: size %q is not one of %s", v, val, strings.Join(sortedSizes(), ", "))
			}
			s.size = val
		case "batch", "seq", "micro":
			n, err := strconv.Atoi(val)
			if err != nil || n < 1 {
				return s, fmt.Errorf("shape %q: %s=%q: want a positive integer", v, k, val)
			}
			switch k {
			case "batch":
				s.batch = n
			case "seq":
				s.seq = n
			default:
				s.micro = n
			}
		default:
			return s, fmt.Errorf("shape %q: unknown key %q (have size, batch, seq, micro)", v, k)
		}
	}
	if s.seq < 2 {
		return s, fmt.Errorf("shape %q: seq must be at least 2 (one target)", v)
	}
	if c := benchSizes[s.size](benchVocab); s.seq > c.MaxPositionEmbeddings {
		return s, fmt.Errorf("shape %q: seq %d is past the config's %d positions", v, s.seq, c.MaxPositionEmbeddings)
	}
	return s, nil
}

func sortedSizes() []string {
	var names []string
	for n := range benchSizes {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// peakRSSMiB is the process's peak resident memory (VmHWM, what
// getrusage's ru_maxrss and /usr/bin/time -v report), in MiB.
func peakRSSMiB() (float64, error) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, fmt.Errorf("peak RSS: %w", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 64)
			if err != nil {
				return 0, fmt.Errorf("peak RSS: VmHWM %q: %w", rest, err)
			}
			return kb / 1024, nil
		}
	}
	return 0, fmt.Errorf("peak RSS: no VmHWM in /proc/self/status")
}

// BenchmarkTrainShape measures one AdamW step at the shape in
// $CREDO_BENCH_SHAPE ("size=40M,batch=16,seq=512"; sizes 1M, 10M, 40M, 135M)
// and is skipped when it is unset. Besides BenchmarkTrainStep's metrics it
// reports the process's peak RSS as peak-MiB, so run one shape per process
// (scripts/scaling.sh does) or the peaks mix.
func BenchmarkTrainShape(b *testing.B) {
	v := os.Getenv("CREDO_BENCH_SHAPE")
	if v == "" {
		b.Skip("CREDO_BENCH_SHAPE is unset")
	}
	s, err := parseBenchShape(v)
	if err != nil {
		b.Fatal(err)
	}
	c := benchSizes[s.size](benchVocab)
	name := fmt.Sprintf("%s-%dparams-B%d-T%d", s.size, c.NumParams(), s.batch, s.seq)
	if s.micro > 0 {
		name += fmt.Sprintf("-micro%d", s.micro)
	}
	// Go calls the function twice (b.N = 1, then -benchtime's count); one
	// model serves both, so the peak is one model's and the first pass is
	// a second warm-up step.
	var step func() error
	b.Run(name, func(b *testing.B) {
		if step == nil {
			step = newBenchStep(b, c, s.batch, s.seq, Memory{MicroBatch: s.micro})
		}
		timeSteps(b, c, s.batch, s.seq, step)
		mib, err := peakRSSMiB()
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(mib, "peak-MiB")
	})
}

func TestParseBenchShape(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want benchShape
		err  bool
	}{
		{in: "size=40M,batch=16,seq=512", want: benchShape{"40M", 16, 512, 0}},
		{in: "seq=1024", want: benchShape{"1M", 16, 1024, 0}},
		{in: "size=135M,batch=32,seq=192,micro=1", want: benchShape{"135M", 32, 192, 1}},
		{in: "micro=0", err: true},
		{in: " batch=128 , size=10M", want: benchShape{"10M", 128, 256, 0}},
		{in: "size=7M", err: true},
		{in: "batch=0", err: true},
		{in: "seq=1", err: true},
		{in: "seq=2048", err: true}, // past 1024 positions
		{in: "steps=3", err: true},
		{in: "batch", err: true},
	} {
		got, err := parseBenchShape(tc.in)
		if (err != nil) != tc.err {
			t.Errorf("parseBenchShape(%q) error %v, want error %v", tc.in, err, tc.err)
			continue
		}
		if !tc.err && got != tc.want {
			t.Errorf("parseBenchShape(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
		if !tc.err {
			if again, err := parseBenchShape(got.String()); err != nil || again != got {
				t.Errorf("parseBenchShape(%q.String()) = %+v, %v; want the same shape", tc.in, again, err)
			}
		}
	}
}

func TestBench40MParams(t *testing.T) {
	if n := bench40M(benchVocab).NumParams(); n < 38e6 || n > 42e6 {
		t.Errorf("bench40M has %d parameters, want about 40M", n)
	}
	// SmolLM2-135M-Instruct's 134,515,008 (credo import-gguf's 134.5M).
	if n := bench135M(benchVocab).NumParams(); n != 134515008 {
		t.Errorf("bench135M has %d parameters, want SmolLM2-135M's 134,515,008", n)
	}
}

func TestPeakRSS(t *testing.T) {
	mib, err := peakRSSMiB()
	if err != nil {
		t.Fatal(err)
	}
	if mib < 1 || mib > 1<<20 {
		t.Errorf("peak RSS %.1f MiB: not a plausible test process's", mib)
	}
}
