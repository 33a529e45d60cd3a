package service

import (
	"errors"
	"sync/atomic"

	"github.com/credo-rl/credo/service/wire"
)

// parallelMin is the number of responses below which decoding them on
// several cores is not worth the scan that finds them.
const parallelMin = 64

// serialOnly turns decodeResponsesParallel off, for tests that compare.
var serialOnly = false

// errSerial stops the parallel decode, for the serial loop to word the error.
var errSerial = errors.New("too many tokens: the serial loop says so")

// decodeResponsesParallel decodes the responses array at the cursor on
// every core (wire.ParallelArray), each response by decodeResponse with a
// decoder of its own, and then makes the group ids dense in response
// order, as the serial loop makes them. It returns nil, leaving the cursor
// where it was (but for white space), whenever that loop has anything to
// say: an array it would not accept (malformed, too long, any response in
// error, too many tokens), or one too short to split. Otherwise the cursor
// is past the array, as after the loop, and every response is what the
// loop would have read.
func decodeResponsesParallel(d *wire.Decoder, groups map[any]int) []responseIn {
	if serialOnly {
		return nil
	}
	var total atomic.Int64 // the batch's tokens so far, in any order: over the limit is over it in all
	out := wire.ParallelArray(d, parallelMin, maxResponses, func(w *wire.Decoder, j int) (responseIn, error) {
		r, err := decodeResponse(w, j)
		if err == nil && total.Add(int64(len(r.tokens))) > maxBatchTokens {
			err = errSerial
		}
		return r, err
	})
	for j := range out {
		out[j].group = denseGroup(groups, out[j].groupKey)
	}
	return out
}
