// Package wire is the JSON of credo serve's wire format (docs/SERVICE.md),
// read and written by hand rather than by reflection: Decoder reads a
// request body several times faster than encoding/json on batches of a
// million tokens, with the field's path (responses[3].offsets[7]) in every
// error, and Writer writes answers in Go's shortest float64 form, so
// clients get credo's numbers bit for bit.
//
// It knows JSON and the format's conventions (null as an absent key,
// packed base64 arrays of little-endian 4-byte values, [start, end) pairs),
// not the requests' schema: which keys an object has, and the limits on
// counts, are the caller's (package service).
//
// It imports only the standard library.
//
// It needs no GoMLX (go list -deps names none).
package wire
