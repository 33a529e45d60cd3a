package service

import (
	"math"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/credit/topk"
	"github.com/credo-rl/credo/service/wire"
)

// replayIn is MRTPO's replay answers as sent.
type replayIn struct {
	plan    string
	answers []topk.Answer
	packed  []packedField // base64 fields, decoded after the body is read
}

// packedField is one answer's base64 ids or logprobs, kept as text while
// the body is read and decoded afterwards on every core: a top-20 replay
// of a large batch is a hundred megabytes of base64.
type packedField struct {
	answer int
	ids    bool // else logprobs
	src    []byte
	path   string
}

// unpackAll decodes the answers' base64 fields in parallel; an error
// names the lowest field that failed.
func (rp *replayIn) unpackAll() error {
	errs := make([]error, len(rp.packed))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(rp.packed)) {
		wg.Go(func() {
			for j := int(next.Add(1) - 1); j < len(rp.packed); j = int(next.Add(1) - 1) {
				f := rp.packed[j]
				a := &rp.answers[f.answer]
				var err error
				if f.ids {
					if a.IDs, err = wire.Unpack[int32](f.src); err == nil {
						err = wire.AtLeast(a.IDs, -1)
					}
				} else {
					a.LogProbs, err = wire.Unpack[float32](f.src)
				}
				if err != nil {
					errs[j] = badRequest(f.path, err.Error())
				}
			}
		})
	}
	wg.Wait()
	rp.packed = nil
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// decodeReplay reads {"plan"?, "answers": [{k, ids, logprobs}]}.
func decodeReplay(d *wire.Decoder) (*replayIn, error) {
	rp := &replayIn{}
	err := d.Members(func(key string) error {
		var err error
		switch key {
		case "plan":
			rp.plan, err = d.Str()
		case "answers":
			rp.answers = []topk.Answer{}
			err = d.Array(math.MaxInt32, func(i int) error {
				a, err := decodeAnswer(d, rp, i)
				rp.answers = append(rp.answers, a)
				return err
			})
		default:
			return d.Unknown(key, "plan, answers")
		}
		return err
	})
	if err == nil && rp.answers == nil {
		err = d.Errorf("answers: required, one per planned request (/v1/replay-plan)")
	}
	if err == nil {
		err = rp.unpackAll()
	}
	return rp, err
}

// decodeAnswer reads one request's top-k: packed ids and logprobs of T·k
// entries, or [T][≤k] JSON arrays padded here with unused entries.
func decodeAnswer(d *wire.Decoder, rp *replayIn, i int) (topk.Answer, error) {
	var a topk.Answer
	var idRows [][]int32
	var lpRows [][]float32
	const limit = maxTokens * maxTopK
	err := d.Members(func(key string) error {
		var err error
		switch key {
		case "k":
			var n int64
			switch n, err = d.Int(math.MinInt32, math.MaxInt32); {
			case err != nil:
			case n < 1:
				err = d.Errorf("k must be at least 1, got %d", n)
			case n > maxTopK:
				err = tooMany(d.Path(), int(n), maxTopK, "entries per position")
			}
			a.K = int(n)
		case "ids":
			if d.Peek() == '[' && d.NestedArray() {
				err = d.Array(maxTokens, func(int) error {
					row, err := d.Int32s(-1, maxTopK)
					idRows = append(idRows, row)
					return err
				})
			} else if d.Peek() == '"' {
				err = rp.keep(d, i, true, limit)
			} else {
				a.IDs, err = d.Int32s(-1, limit)
			}
		case "logprobs":
			if d.Peek() == '[' && d.NestedArray() {
				err = d.Array(maxTokens, func(int) error {
					row, err := d.Float32s(maxTopK)
					lpRows = append(lpRows, row)
					return err
				})
			} else if d.Peek() == '"' {
				err = rp.keep(d, i, false, limit)
			} else {
				a.LogProbs, err = d.Float32s(limit)
			}
		default:
			return d.Unknown(key, "k, ids, logprobs")
		}
		return err
	})
	if err != nil {
		return a, err
	}
	if a.K == 0 {
		return a, d.Errorf("k: required, the entries per position (1 to %d)", maxTopK)
	}
	if idRows != nil {
		if a.IDs, err = flattenRows(d, "ids", idRows, a.K, -1); err != nil {
			return a, err
		}
	}
	if lpRows != nil {
		a.LogProbs, err = flattenRows(d, "logprobs", lpRows, a.K, 0)
	}
	return a, err
}

// keep takes answer i's base64 ids (or logprobs) for unpackAll.
func (rp *replayIn) keep(d *wire.Decoder, i int, ids bool, limit int) error {
	src, err := d.PackedSource(limit)
	if err == nil {
		rp.packed = append(rp.packed, packedField{answer: i, ids: ids, src: src, path: d.Path()})
	}
	return err
}

// flattenRows lays [T][≤k] rows out as T·k entries, padding with pad.
func flattenRows[T int32 | float32](d *wire.Decoder, field string, rows [][]T, k int, pad T) ([]T, error) {
	out := make([]T, 0, len(rows)*k)
	for t, row := range rows {
		if len(row) > k {
			return nil, d.Errorf("%s[%d]: %d entries, more than k = %d", field, t, len(row), k)
		}
		out = append(out, row...)
		for range k - len(row) {
			out = append(out, pad)
		}
	}
	return out, nil
}

// decodeInfluence reads {"token": [T], "steps": [{start, end, logit}]}.
func decodeInfluence(d *wire.Decoder) (credit.Influence, error) {
	var in credit.Influence
	err := d.Members(func(key string) error {
		var err error
		switch key {
		case "token":
			in.Token, err = d.Floats(maxTokens)
		case "steps":
			err = d.Array(maxTokens, func(int) error {
				var st credit.StepScore
				var r byteRange
				hasLogit := false
				err := d.Members(func(key string) error {
					if ok, err := r.read(d, key, 0, maxTokens); ok {
						return err
					}
					if key != "logit" {
						return d.Unknown(key, "start, end, logit")
					}
					var err error
					st.Logit, err = d.Float()
					hasLogit = true
					return err
				})
				if err == nil && (!r.complete() || !hasLogit) {
					err = d.Errorf("a step needs start, end and logit")
				}
				st.Start, st.End = r.start, r.end
				in.Steps = append(in.Steps, st)
				return err
			})
		default:
			return d.Unknown(key, "token, steps")
		}
		return err
	})
	if err == nil && in.Token == nil {
		in.Token = []float64{}
	}
	return in, err
}
