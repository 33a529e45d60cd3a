package reward_test

import (
	"fmt"

	"github.com/credo-rl/credo/reward"
)

// A verifier reports the bytes it checked; credit assignment needs them on
// tokens.
func ExampleTokenStrengths() {
	response := `{"unit": "kelvin"}`
	offsets := [][2]int{{0, 1}, {1, 7}, {7, 9}, {9, 17}, {17, 18}} // `{` `"unit"` `: ` `"kelvin"` `}`
	wrong := reward.Span{Start: 10, End: 16}                       // kelvin
	fmt.Println(response[wrong.Start:wrong.End], reward.TokenStrengths([]reward.Span{wrong}, offsets))
	// Output: kelvin [0 0 0 1 0]
}
