package credit

import "testing"

func TestRequirements(t *testing.T) {
	for _, tc := range []struct {
		name string
		want Requirements
	}{
		{"grpo", Requirements{}},
		{"gdpo", Requirements{}},
		{"span", Requirements{}},
		{"mrtpo", Requirements{Replay: true, InfoBlocks: true}},
		{"p2t", Requirements{PRM: true}},
		{"saw+mrtpo", Requirements{Replay: true, InfoBlocks: true}},
		{"saw+gdpo", Requirements{}},
	} {
		m, err := New(tc.name, DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		if got := RequirementsOf(m); got != tc.want {
			t.Errorf("%s requires %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
