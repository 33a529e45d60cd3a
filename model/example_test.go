package model_test

import (
	"context"
	"fmt"
	"math"

	"github.com/credo-rl/credo/model"
)

// A model is built from a preset and a seed; LogProbs scores every token
// after the first.
func ExampleModel_LogProbs() {
	m, err := model.New(model.Tiny(40), 1)
	if err != nil {
		panic(err)
	}
	lp, err := m.LogProbs(context.Background(), [][]int32{{1, 2, 3, 4}, {5, 6}})
	if err != nil {
		panic(err)
	}
	p := math.Exp(float64(lp[0][0]))
	fmt.Println(len(lp[0]), len(lp[1]), p > 0 && p < 1)
	// Output: 3 1 true
}
