package sql

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
)

// valueKind orders kinds the way SQLite's ORDER BY does: NULL, numbers, text.
type valueKind uint8

const (
	kindNull valueKind = iota
	kindNum
	kindText // text and blobs, compared as bytes
)

// value is one cell of a result set.
type value struct {
	kind valueKind
	num  float64
	text string
}

func toValue(v any) value {
	switch x := v.(type) {
	case nil:
		return value{}
	case int64:
		return value{kind: kindNum, num: float64(x)}
	case float64:
		return value{kind: kindNum, num: x}
	case string:
		return value{kind: kindText, text: x}
	case []byte:
		return value{kind: kindText, text: string(x)}
	case bool:
		if x {
			return value{kind: kindNum, num: 1}
		}
		return value{kind: kindNum}
	case time.Time: // only for columns declared DATE or TIMESTAMP; none are
		return value{kind: kindText, text: x.Format(time.DateOnly)}
	default:
		return value{kind: kindText, text: fmt.Sprint(x)}
	}
}

func (v value) String() string {
	switch v.kind {
	case kindNull:
		return "NULL"
	case kindNum:
		return strconv.FormatFloat(v.num, 'g', -1, 64)
	}
	return strconv.Quote(v.text)
}

// relTol is the relative tolerance for numbers: a and b are equal when
// |a − b| ≤ relTol · max(|a|, |b|), so AVG computed another way (or SUM
// summed in another order) still matches.
const relTol = 1e-6

func (v value) equal(w value) bool {
	if v.kind != w.kind {
		return false
	}
	switch v.kind {
	case kindNull:
		return true // NULL equals NULL when comparing result sets
	case kindNum:
		return v.num == w.num || math.Abs(v.num-w.num) <= relTol*math.Max(math.Abs(v.num), math.Abs(w.num))
	}
	return v.text == w.text
}

func compareValues(v, w value) int {
	if v.kind != w.kind {
		return int(v.kind) - int(w.kind)
	}
	switch v.kind {
	case kindNum:
		switch {
		case v.num < w.num:
			return -1
		case v.num > w.num:
			return 1
		}
		return 0
	case kindText:
		return strings.Compare(v.text, w.text)
	}
	return 0
}

func compareRows(a, b []value) int {
	for i := range min(len(a), len(b)) {
		if c := compareValues(a[i], b[i]); c != 0 {
			return c
		}
	}
	return len(a) - len(b)
}

func rowEqual(a, b []value) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !a[i].equal(b[i]) {
			return false
		}
	}
	return true
}

func rowString(r []value) string {
	parts := make([]string, len(r))
	for i, v := range r {
		parts[i] = v.String()
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// sameResult compares a result set with the reference's. Column names
// never matter; the column count does. Rows are compared in order when the
// reference orders them, else as multisets (duplicates count). It returns
// "" when they are equal, else why not.
func sameResult(gotCols int, got [][]value, wantCols int, want [][]value, ordered bool) string {
	if gotCols != wantCols {
		return fmt.Sprintf("%d columns, the reference has %d", gotCols, wantCols)
	}
	if len(got) != len(want) {
		return fmt.Sprintf("%d rows, the reference has %d", len(got), len(want))
	}
	if !ordered {
		got = slices.SortedFunc(slices.Values(got), compareRows)
		want = slices.SortedFunc(slices.Values(want), compareRows)
	}
	for i := range got {
		if !rowEqual(got[i], want[i]) {
			if ordered {
				return fmt.Sprintf("row %d is %s, the reference's is %s", i+1, rowString(got[i]), rowString(want[i]))
			}
			return fmt.Sprintf("rows differ: %s where the reference has %s (rows sorted)", rowString(got[i]), rowString(want[i]))
		}
	}
	return ""
}
