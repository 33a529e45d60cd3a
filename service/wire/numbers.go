package wire

import (
	"math"
	"strconv"
	"unsafe"
)

// number returns the bytes of the JSON number at the cursor, checked
// against JSON's grammar, and whether it is an integer (no fraction or
// exponent).
func (d *Decoder) number() ([]byte, bool, error) {
	d.space()
	start, j := d.i, d.i
	digits := func() int {
		n := 0
		for j < len(d.data) && d.data[j] >= '0' && d.data[j] <= '9' {
			j++
			n++
		}
		return n
	}
	if j < len(d.data) && d.data[j] == '-' {
		j++
	}
	if j < len(d.data) && d.data[j] == '0' {
		j++
	} else if digits() == 0 {
		return nil, false, d.Errorf("want a number, got %s", d.describe())
	}
	integer := true
	if j < len(d.data) && d.data[j] == '.' {
		j++
		integer = false
		if digits() == 0 {
			return nil, false, d.Errorf("malformed number (no digit after the point)")
		}
	}
	if j < len(d.data) && (d.data[j] == 'e' || d.data[j] == 'E') {
		j++
		integer = false
		if j < len(d.data) && (d.data[j] == '+' || d.data[j] == '-') {
			j++
		}
		if digits() == 0 {
			return nil, false, d.Errorf("malformed number (no digit in the exponent)")
		}
	}
	d.i = j
	return d.data[start:j], integer, nil
}

// Float reads a finite number (1e999 is an error, not +Inf: no
// arithmetic downstream is meant for infinities).
func (d *Decoder) Float() (float64, error) { return d.floatBits(64) }

// floatBits reads a finite number rounded to a float of that many bits
// (32: parsed as float32 directly, so a float32 written in its shortest
// form comes back exactly).
func (d *Decoder) floatBits(bits int) (float64, error) {
	b, _, err := d.number()
	if err != nil {
		return 0, err
	}
	x, err := strconv.ParseFloat(unsafe.String(unsafe.SliceData(b), len(b)), bits)
	if err != nil || math.IsInf(x, 0) {
		return 0, d.Errorf("%s is not a finite float%d", b, bits)
	}
	return x, nil
}

// Floats reads a list of at most limit finite numbers; an empty list is
// empty, not nil.
func (d *Decoder) Floats(limit int) ([]float64, error) {
	out := []float64{}
	err := d.Array(limit, func(int) error {
		x, err := d.Float()
		out = append(out, x)
		return err
	})
	return out, err
}

// Int reads an integer in [lo, hi]: written without fraction or exponent
// (1.0 and 1e2 are errors), so that a float where an id belongs is caught.
func (d *Decoder) Int(lo, hi int64) (int64, error) {
	b, isInt, err := d.number()
	if err != nil {
		return 0, err
	}
	if !isInt {
		return 0, d.Errorf("want an integer, got %s", b)
	}
	n, err := strconv.ParseInt(unsafe.String(unsafe.SliceData(b), len(b)), 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, d.Errorf("%s is outside [%d, %d]", b, lo, hi)
	}
	return n, nil
}

// fastInt is Int for the common case of plain digits, without a call
// into strconv (token ids: a million of them in a batch).
func (d *Decoder) fastInt(lo, hi int64) (int64, error) {
	d.space()
	j, neg := d.i, false
	if j < len(d.data) && d.data[j] == '-' {
		neg = true
		j++
	}
	var n int64
	k := j
	for k < len(d.data) && k-j < 18 && d.data[k] >= '0' && d.data[k] <= '9' {
		n = n*10 + int64(d.data[k]-'0')
		k++
	}
	if k == j || (d.data[j] == '0' && k-j > 1) || (k < len(d.data) && (d.data[k] == '.' || d.data[k] == 'e' || d.data[k] == 'E' || (d.data[k] >= '0' && d.data[k] <= '9'))) {
		return d.Int(lo, hi) // anything unusual: the general path says what is wrong
	}
	if neg {
		n = -n
	}
	if n < lo || n > hi {
		return d.Int(lo, hi)
	}
	d.i = k
	return n, nil
}

// Uint reads an integer in [0, 2^64): a seed, whose every bit counts.
func (d *Decoder) Uint() (uint64, error) {
	b, isInt, err := d.number()
	if err != nil {
		return 0, err
	}
	n, perr := strconv.ParseUint(unsafe.String(unsafe.SliceData(b), len(b)), 10, 64)
	if !isInt || perr != nil {
		return 0, d.Errorf("want an integer in [0, 2^64), got %s", b)
	}
	return n, nil
}

// Bool reads true or false.
func (d *Decoder) Bool() (bool, error) {
	switch {
	case d.Peek() == 't' && d.literal("true"):
		return true, nil
	case d.Peek() == 'f' && d.literal("false"):
		return false, nil
	}
	return false, d.Errorf("want true or false, got %s", d.describe())
}
