package wire

import (
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

// readInts reads {"xs": <Int32s>} as a schema would.
func readInts(body string, limit int) ([]int32, error) {
	d := NewDecoder([]byte(body), nil)
	var xs []int32
	err := d.Members(func(key string) error {
		if key != "xs" {
			return d.Unknown(key, "xs")
		}
		var err error
		xs, err = d.Int32s(0, limit)
		return err
	})
	if err == nil {
		err = d.End()
	}
	return xs, err
}

// Errors are *Error with the field's path, and TooLarge only for counts.
func TestErrorsNameThePath(t *testing.T) {
	for _, c := range []struct {
		body, path, msg string
		tooLarge        bool
	}{
		{`{"xs": [1, -2]}`, "xs[1]", "-2 is outside [0, 2147483647]", false},
		{`{"xs": [1, 2, 3, 4]}`, "xs", "more than 3 elements", true},
		{`{"xs": "` + pack(1, 2, 3, 4) + `"}`, "xs", "more than 3 values", true},
		{`{"xs": "AAA="}`, "xs", "2 bytes of base64 are not whole 4-byte values", false},
		{`{"xs": [1], "xs": [2]}`, "", `key "xs" given twice`, false},
		{`{"ys": 1}`, "ys", `unknown field "ys" (known here: xs)`, false},
		{`{"xs": [1]} x`, "", "unexpected 'x' at byte 12 after the JSON object", false},
		// A NUL byte is not the end of the body (the fuzzer found it taken for one).
		{"{\"xs\": [1]}\x00{\"ys\": 1}", "", `unexpected '\x00' at byte 11 after the JSON object`, false},
		{"{\"xs\": [1]} \x00", "", `unexpected '\x00' at byte 12 after the JSON object`, false},
		{"{\"xs\": \x00}", "xs", `want an array, got '\x00' at byte 7`, false},
	} {
		_, err := readInts(c.body, 3)
		var e *Error
		if !errors.As(err, &e) || e.Path != c.path || e.Msg != c.msg || e.TooLarge != c.tooLarge {
			t.Errorf("%s: %#v, want %q at %q (too large: %v)", c.body, err, c.msg, c.path, c.tooLarge)
		}
	}
	if xs, err := readInts(`{"xs": null}`, 3); err != nil || xs != nil {
		t.Errorf("null is an absent key: %v, %v", xs, err)
	}
}

func pack(xs ...int32) string {
	raw := make([]byte, 4*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint32(raw[4*i:], uint32(x))
	}
	return base64.StdEncoding.EncodeToString(raw)
}

// A packed array reads as the JSON array of the same values.
func TestPackedEqualsJSON(t *testing.T) {
	xs := []int32{0, 7, math.MaxInt32, 3, 3, 9}
	asJSON, _ := json.Marshal(xs)
	for _, body := range []string{string(asJSON), `"` + pack(xs...) + `"`} {
		got, err := NewDecoder([]byte(body), nil).Int32s(0, 100)
		if err != nil || !reflect.DeepEqual(got, xs) {
			t.Errorf("Int32s(%s) = %v, %v", body, got, err)
		}
	}
	want := [][2]int{{0, 7}, {math.MaxInt32, 3}, {3, 9}}
	for _, body := range []string{`[[0, 7], [2147483647, 3], [3, 9]]`, `"` + pack(xs...) + `"`} {
		got, err := NewDecoder([]byte(body), nil).Offsets(100)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Offsets(%s) = %v, %v", body, got, err)
		}
	}
	fs := []float32{0.1, -3, 1e-30}
	raw := make([]byte, 12)
	for i, x := range fs {
		binary.LittleEndian.PutUint32(raw[4*i:], math.Float32bits(x))
	}
	for _, body := range []string{`[0.1, -3, 1e-30]`, `"` + base64.StdEncoding.EncodeToString(raw) + `"`} {
		got, err := NewDecoder([]byte(body), nil).Float32s(100)
		if err != nil || !reflect.DeepEqual(got, fs) {
			t.Errorf("Float32s(%s) = %v, %v", body, got, err)
		}
	}
}

// ParallelArray reads what Array reads, and leaves the cursor where Array does.
func TestParallelArrayEqualsArray(t *testing.T) {
	var b strings.Builder
	b.WriteString(" [")
	for i := range 300 {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(`{"a": [` + strings.Repeat(`"x\"]",`, i%5) + `1]}`)
	}
	b.WriteString("] ")
	read := func(w *Decoder, _ int) (int, error) {
		n := 0
		err := w.Members(func(string) error {
			return w.Array(100, func(int) error { n++; _, err := w.Raw(); return err })
		})
		return n, err
	}
	d := NewDecoder([]byte(b.String()), nil)
	par := ParallelArray(d, 64, 1000, read)
	if par == nil || d.End() != nil {
		t.Fatalf("ParallelArray refused the array, or left the cursor inside it")
	}
	d = NewDecoder([]byte(b.String()), nil)
	var ser []int
	if err := d.Array(1000, func(i int) error { n, err := read(d, i); ser = append(ser, n); return err }); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(par, ser) {
		t.Errorf("parallel %v, serial %v", par[:5], ser[:5])
	}
	if ParallelArray(NewDecoder([]byte(b.String()), nil), 64, 299, read) != nil {
		t.Errorf("an array over the limit is the serial Array's to refuse")
	}
}
