package model

import (
	"context"
	"testing"
	"time"
)

func TestQuickSmoke(t *testing.T) {
	m, err := New(Tiny(50), 1)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	lp, err := m.LogProbs(context.Background(), [][]int32{{1, 2, 3, 4}, {5, 6}})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(time.Since(t0), lp)
	t0 = time.Now()
	d, err := m.Distributions(context.Background(), [][]int32{{1, 2, 3, 4}, {5, 6}}, []int{2, 1})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(time.Since(t0), len(d[0]), len(d[0][0]), len(d[1]))
}

func TestQuickTrain(t *testing.T) {
	m, _ := New(Tiny(20), 1)
	tr, err := NewTrainer(m, DefaultAdamW(), CrossEntropy{})
	if err != nil {
		t.Fatal(err)
	}
	seqs := [][]int32{{1, 2, 3, 4, 5, 6, 7, 8}, {3, 4, 5, 6, 7}}
	mask := [][]float32{{1, 1, 1, 1, 1, 1, 1}, {1, 1, 1, 1}}
	for i := 0; i < 30; i++ {
		st, err := tr.Step(context.Background(), seqs, [][][]float32{mask}, 1e-2)
		if err != nil {
			t.Fatal(err)
		}
		if i%5 == 0 {
			t.Log(i, st)
		}
	}
}
