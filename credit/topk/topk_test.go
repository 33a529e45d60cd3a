package topk

import (
	"math"
	"testing"
)

// expLogProb is within 1e-9 of math.Exp on every log-probability an
// engine can send, 0 below float32's range and exactly 1 at 0.
func TestExpLogProb(t *testing.T) {
	var worst float64
	for x := -104.0; x <= slack; x += 1e-4 {
		if want := math.Exp(x); want > 1e-37 {
			worst = max(worst, math.Abs(expLogProb(x)-want)/want)
		}
	}
	if worst > 1e-9 {
		t.Errorf("expLogProb is within %g of math.Exp, want 1e-9", worst)
	}
	if expLogProb(-200) != 0 || expLogProb(0) != 1 {
		t.Errorf("expLogProb(-200) = %v, expLogProb(0) = %v", expLogProb(-200), expLogProb(0))
	}
}
