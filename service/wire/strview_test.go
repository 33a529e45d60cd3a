package wire

import (
	"testing"
	"unsafe"
)

// StrView shares the body's bytes where a string has no escapes, copies
// where it has, and refuses what Str refuses.
func TestStrView(t *testing.T) {
	cases := []struct {
		in, want string
		shared   bool
		err      bool
	}{
		{`"a,b,c"`, "a,b,c", true, false},
		{`""`, "", false, false},
		{`"a\nb"`, "a\nb", false, false},
		{`"\u00e9t\u00e9"`, "été", false, false},
		{`"a`, "", false, true},
		{`"\xff"`, "", false, true},
		{`12`, "", false, true},
	}
	for _, c := range cases {
		data := []byte(c.in)
		if c.in == `"\xff"` {
			data = []byte{'"', 0xff, '"'}
		}
		d := NewDecoder(data, nil)
		got, err := d.StrView()
		if (err != nil) != c.err || got != c.want {
			t.Errorf("%s: %q, %v; want %q (error %v)", c.in, got, err, c.want, c.err)
			continue
		}
		shared := len(got) > 0 && unsafe.StringData(got) == &data[1]
		if shared != c.shared {
			t.Errorf("%s: shares the body %v, want %v", c.in, shared, c.shared)
		}
	}
}
