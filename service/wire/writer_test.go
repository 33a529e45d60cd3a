package wire

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Str writes what encoding/json reads back as the same string (invalid
// UTF-8 as U+FFFD), and Float the same float64.
func TestWriterRoundTrips(t *testing.T) {
	for _, s := range []string{"", "plain", `q"b\s`, "\n\r\t\x00\x1f", "é🙂<&>", "bad \xff utf-8"} {
		var w Writer
		w.Str(s)
		var got string
		if err := json.Unmarshal(w.Bytes(), &got); err != nil || got != strings.ToValidUTF8(s, "\ufffd") {
			t.Errorf("Str(%q) wrote %s: %q, %v", s, w.Bytes(), got, err)
		}
	}
	for _, x := range []float64{0, -0.5, 1e-310, math.MaxFloat64, 1.0 / 3} {
		var w Writer
		w.Float(x)
		var got float64
		if err := json.Unmarshal(w.Bytes(), &got); err != nil || got != x {
			t.Errorf("Float(%v) wrote %s", x, w.Bytes())
		}
	}
	var w Writer
	w.Float(math.NaN())
	if string(w.Bytes()) != "null" {
		t.Errorf("NaN wrote %s, want null", w.Bytes())
	}
}

// Rows written on every core are the rows written one after another.
func TestRowsInPartsEqualsSerial(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	rows := make([][]float64, 300)
	for i := range rows {
		if i%7 == 3 {
			continue // nil: null with nulls
		}
		rows[i] = make([]float64, 100)
		for j := range rows[i] {
			rows[i][j] = rng.NormFloat64()
		}
	}
	for _, packed := range []bool{false, true} {
		var par, ser Writer
		par.Rows(rows, packed, true)
		ser.Byte('[')
		for i, r := range rows {
			if i > 0 {
				ser.Byte(',')
			}
			if r == nil {
				ser.Raw("null")
				continue
			}
			ser.Floats(r, packed)
		}
		ser.Byte(']')
		if string(par.Bytes()) != string(ser.Bytes()) {
			t.Errorf("packed %v: Rows differs from the rows one by one", packed)
		}
	}
}
