package passes_test

import (
	"testing"

	"github.com/gomlx/compute"
	"github.com/gomlx/compute/dtypes"
	"github.com/gomlx/compute/internal/gobackend"
	"github.com/gomlx/compute/shapes"
	"github.com/gomlx/compute/support/testutil"
)

// TestImplicitBroadcastKeepsMiddleAxis: a broadcast over a middle axis
// ([2, 1, 3] → [2, 2, 3]) stays explicit, since fused it would run through
// the element-by-element iterator; a leading-axis one ([1, 2, 3]) is fused
// as before. Both compute the same sums.
func TestImplicitBroadcastKeepsMiddleAxis(t *testing.T) {
	backend := compute.MustNew()
	defer backend.Finalize()
	for _, tc := range []struct {
		name  string
		dims  []int
		fused bool
	}{
		{"middle", []int{2, 1, 3}, false},
		{"leading", []int{1, 2, 3}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			builder := backend.Builder(tc.name).(*gobackend.Builder)
			main := builder.Main().(*gobackend.Function)
			x, _ := main.Parameter("x", shapes.Make(dtypes.Float32, tc.dims...), nil)
			xb, _ := main.BroadcastInDim(x, shapes.Make(dtypes.Float32, 2, 2, 3), []int{0, 1, 2})
			y, _ := main.Parameter("y", shapes.Make(dtypes.Float32, 2, 2, 3), nil)
			z, _ := main.Add(xb, y)
			_ = main.Return([]compute.Value{z}, nil)
			exec, err := builder.Compile()
			if err != nil {
				t.Fatal(err)
			}
			if fused := z.(*gobackend.Node).Inputs[0] == x.(*gobackend.Node); fused != tc.fused {
				t.Errorf("fused = %v, want %v", fused, tc.fused)
			}
			xData := make([]float32, 6)
			yData := make([]float32, 12)
			for i := range xData {
				xData[i] = float32(10 * (i + 1))
			}
			for i := range yData {
				yData[i] = float32(i)
			}
			xBuf, _ := backend.BufferFromFlatData(0, xData, shapes.Make(dtypes.Float32, tc.dims...))
			yBuf, _ := backend.BufferFromFlatData(0, yData, shapes.Make(dtypes.Float32, 2, 2, 3))
			out, err := exec.Execute([]compute.Buffer{xBuf, yBuf}, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			got := out[0].(*gobackend.Buffer).Flat.([]float32)
			want := make([]float32, 12)
			for i := range want {
				a, b, c := i/6, i/3%2, i%3
				xi := c
				switch {
				case tc.dims[0] == 2: // [2, 1, 3]
					xi = a*3 + c
				default: // [1, 2, 3]
					xi = b*3 + c
				}
				want[i] = xData[xi] + yData[i]
			}
			if ok, diff := testutil.IsEqual(want, got); !ok {
				t.Errorf("wrong sums:\n%s", diff)
			}
		})
	}
}
