package service

import (
	"bytes"
	"strings"

	"github.com/credo-rl/credo/service/wire"
)

// decodeObject reads a request body, one JSON object and nothing after it,
// calling f for each member whose value is not null (wire.Decoder.Members);
// f reads the value with d. The decoder's errors become the API's here,
// and only here (fromWire).
func decodeObject(body []byte, f func(d *wire.Decoder, key string) error) error {
	// A UTF-8 byte order mark is no JSON, but editors and some HTTP
	// clients on Windows put one first: read past it.
	d := wire.NewDecoder(bytes.TrimPrefix(body, utf8BOM), schemaKeys)
	err := d.Members(func(key string) error { return f(d, key) })
	if err == nil {
		err = d.End()
	}
	return fromWire(err)
}

// utf8BOM is the UTF-8 byte order mark, EF BB BF.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// byteRange holds the "start" and "end" members of a span or a replay
// step as they are read, and which of them came (has: 1 start, 2 end).
type byteRange struct {
	start, end int
	has        int
}

// read reads key's value when key is "start" or "end", within [lo, hi];
// ok is false for any other key, which the caller then reads itself. The
// wire's [start, end) pairs are all read here.
func (r *byteRange) read(d *wire.Decoder, key string, lo, hi int64) (ok bool, err error) {
	var n int64
	switch key {
	case "start":
		n, err = d.Int(lo, hi)
		r.start, r.has = int(n), r.has|1
	case "end":
		n, err = d.Int(lo, hi)
		r.end, r.has = int(n), r.has|2
	default:
		return false, nil
	}
	return true, err
}

// complete says both start and end were read.
func (r *byteRange) complete() bool { return r.has == 3 }

// schemaKeys are the keys of the requests' objects, each mapped to itself:
// the decoder returns these strings rather than a copy of each key (a
// batch has some 50,000 of them).
var schemaKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range strings.Fields(`method config rewards weights step seed encoding return_relevance
		responses replay influence group prompt response tokens offsets scores verdicts score info
		reason error skip spans spans_dropped start end strength effect plan answers k ids logprobs token steps logit
		task difficulty split format items prompt_id record count`) {
		m[k] = k
	}
	return m
}()
