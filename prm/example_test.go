package prm_test

import (
	"context"
	"fmt"
	"math"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/prm"
	"github.com/credo-rl/credo/task/arith"
	"github.com/credo-rl/credo/tokenizer"
)

// words splits text into word tokens with their leading white space, as a
// policy tokenizer coarser than the PRM's bytes would: "17", " +", " 25", …
func words(text string) [][2]int {
	var out [][2]int
	for i := 0; i < len(text); {
		j := i
		for j < len(text) && (text[j] == ' ' || text[j] == '\n') {
			j++
		}
		for j < len(text) && text[j] != ' ' && text[j] != '\n' {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

// A PRM scores each step of a response (here the two "a op b = c" lines;
// arith's answer line is not a step) and attributes the sum of the step
// logits to the response's tokens in one forward and one backward pass.
// The policy's tokens are words, the PRM's bytes: influence and step
// ranges are carried over by bytes, and the total is kept. The PRM here
// is untrained; prm.Train (or `credo prm train`) makes a real one.
func Example() {
	tok, err := tokenizer.NewBytes()
	if err != nil {
		panic(err)
	}
	mc, err := prm.ModelConfig("tiny", tok.VocabSize())
	if err != nil {
		panic(err)
	}
	m, err := model.New(mc, 1)
	if err != nil {
		panic(err)
	}
	p, err := prm.New(m, tok, prm.Info{Task: "arith", Separator: arith.Separator})
	if err != nil {
		panic(err)
	}
	response := "17 + 25 = 43\n43 * 3 = 129\nanswer: 129"
	offsets := words(response)
	req := []credit.InfluenceRequest{{Prompt: "Compute (17 + 25) * 3.", Response: response, Offsets: offsets}}
	ctx := context.Background()
	infl, err := p.Influence(ctx, req, credit.NullPad)
	if err != nil {
		panic(err)
	}
	for _, s := range infl[0].Steps {
		fmt.Printf("step %q is policy tokens [%d, %d)\n", response[offsets[s.Start][0]:offsets[s.End-1][1]], s.Start, s.End)
	}
	onPRM, err := p.Attribute(ctx, req, credit.NullPad)
	if err != nil {
		panic(err)
	}
	var sumPolicy, sumPRM float64
	for _, v := range infl[0].Token {
		sumPolicy += v
	}
	for _, v := range onPRM[0].Token {
		sumPRM += v
	}
	fmt.Printf("%d policy tokens, %d PRM tokens, same total influence: %v\n",
		len(infl[0].Token), len(onPRM[0].Token), math.Abs(sumPolicy-sumPRM) < 1e-9)
	// Output:
	// step "17 + 25 = 43" is policy tokens [0, 5)
	// step "\n43 * 3 = 129" is policy tokens [5, 10)
	// 12 policy tokens, 37 PRM tokens, same total influence: true
}

// AUC counts a tie between a positive and a negative as half a win.
func ExampleAUC() {
	logits := []float64{-2, 0.5, 0.5, 3}
	correct := []bool{false, false, true, true}
	auc, err := prm.AUC(logits, correct)
	if err != nil {
		panic(err)
	}
	fmt.Println(auc)
	// Output: 0.875
}

// Carry moves values from byte tokens onto coarser tokens by summing, and
// from a coarse token onto finer ones by splitting evenly.
func ExampleCarry() {
	bytes := [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 4}}
	pairs := [][2]int{{0, 2}, {2, 4}}
	fmt.Println(prm.Carry(bytes, []float64{1, 2, 3, 4}, pairs))
	fmt.Println(prm.Carry(pairs, []float64{3, 7}, bytes))
	// Output:
	// [3 7]
	// [1.5 1.5 3.5 3.5]
}
