package wire

import (
	"encoding/json"
	"errors"
	"testing"
)

// FuzzDecoder feeds any bytes to Raw: it never panics, every error is an
// *Error, and what it accepts is JSON (it is stricter: no key twice, no
// invalid Unicode, at most 128 deep).
func FuzzDecoder(f *testing.F) {
	for _, s := range []string{`{"a": [1, -2.5e3, "x\u00e9\ud83d\ude42", true, null]}`, `"\\"`, `[[[]]]`, `{"a":1,"a":2}`, `1e999`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		d := NewDecoder(body, nil)
		_, err := d.Raw()
		if err == nil {
			err = d.End()
		}
		var e *Error
		switch {
		case err != nil && !errors.As(err, &e):
			t.Fatalf("a bare error: %v", err)
		case err == nil && !json.Valid(body):
			t.Fatalf("accepted what is not JSON: %q", body)
		}
	})
}
