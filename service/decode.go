package service

import (
	"strings"

	"github.com/credo-rl/credo/service/wire"
)

// decodeObject reads a request body, one JSON object and nothing after it,
// calling f for each member whose value is not null (wire.Decoder.Members);
// f reads the value with d. The decoder's errors become the API's here,
// and only here (fromWire).
func decodeObject(body []byte, f func(d *wire.Decoder, key string) error) error {
	d := wire.NewDecoder(body, schemaKeys)
	err := d.Members(func(key string) error { return f(d, key) })
	if err == nil {
		err = d.End()
	}
	return fromWire(err)
}

// schemaKeys are the keys of the requests' objects, each mapped to itself:
// the decoder returns these strings rather than a copy of each key (a
// batch has some 50,000 of them).
var schemaKeys = func() map[string]string {
	m := map[string]string{}
	for _, k := range strings.Fields(`method config rewards weights step seed encoding return_relevance
		responses replay influence group prompt response tokens offsets scores verdicts score info
		reason error skip spans start end strength effect plan answers k ids logprobs token steps logit
		task difficulty split format items prompt_id record count`) {
		m[k] = k
	}
	return m
}()
