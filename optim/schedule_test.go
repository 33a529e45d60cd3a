package optim

import (
	"math"
	"testing"
)

func TestScheduleAt(t *testing.T) {
	s := Schedule{Peak: 1, WarmupSteps: 4, Steps: 14, MinRatio: 0.1}
	for _, tc := range []struct {
		step int
		want float64
	}{
		{0, 0.25}, {3, 1}, // linear warm-up reaches the peak on its last step
		{4, 1},               // cosine starts at the peak
		{9, 0.55},            // halfway: m + (1−m)/2
		{14, 0.1}, {40, 0.1}, // the floor, and it stays there
	} {
		if got := s.At(tc.step); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("At(%d) = %g, want %g", tc.step, got, tc.want)
		}
	}
	if got := (Schedule{Peak: 2e-4, MinRatio: 1}).At(100); got != 2e-4 {
		t.Errorf("constant schedule At(100) = %g, want 2e-4", got)
	}
}
