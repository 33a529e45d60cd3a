package report

import (
	"io"
	"testing"
)

// The benchmarks use the compare directory of the size: 4 methods
// × 3 seeds × 30 steps, 4 rollouts logged per step.

func benchDir(b *testing.B) string {
	dir := b.TempDir()
	writeFixtureCompare(b, dir, []uint64{1, 2, 3}, 30)
	return dir
}

func BenchmarkLoadCompare(b *testing.B) {
	dir := benchDir(b)
	for b.Loop() {
		if _, err := LoadCompare(dir); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkTable(b *testing.B) {
	c, err := LoadCompare(benchDir(b))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_ = Markdown(Table(c))
	}
}

func BenchmarkRender(b *testing.B) {
	c, err := LoadCompare(benchDir(b))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if err := Render(io.Discard, c); err != nil {
			b.Fatal(err)
		}
	}
}
