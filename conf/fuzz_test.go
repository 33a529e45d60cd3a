package conf

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzCredit: any bytes as a credit section are an error or settings that
// write and read back to themselves; never a panic.
func FuzzCredit(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `{"beta":0.3,"warmup_steps":2}`, `{"signed":false}`, `{"saw_offsets":{"a":1}}`, `[1]`, `{"beta":"x"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		c := DefaultCredit()
		if err := c.UnmarshalJSON(data); err != nil {
			return
		}
		out, err := json.Marshal(c)
		if err != nil {
			return // a non-finite float cannot be written; Validate refuses it
		}
		back := DefaultCredit()
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%s: written as %s, which does not read back: %v", data, out, err)
		}
		if !reflect.DeepEqual(withMaps(back), withMaps(c)) {
			t.Fatalf("%s: read back as %+v, want %+v", data, back, c)
		}
	})
}

// withMaps is c with a nil offsets map empty (both write as no offsets).
func withMaps(c Credit) Credit {
	if c.SAWOffsets == nil {
		c.SAWOffsets = map[string]float64{}
	}
	return c
}
