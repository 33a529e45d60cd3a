package service

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"
)

// decodeBoth decodes body with and without the parallel responses path.
func decodeBoth(body []byte) (par, ser *batchRequest, parErr, serErr error) {
	par, parErr = decodeBatch(body)
	serialOnly = true
	defer func() { serialOnly = false }()
	ser, serErr = decodeBatch(body)
	return par, ser, parErr, serErr
}

// Decoding the responses on every core reads what the serial loop reads,
// and on a broken body says what it says: bodies of 100 responses (JSON
// and packed, white space added), each then broken at random bytes.
func TestParallelDecodeEqualsSerial(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	checked, failed := 0, 0
	for seed := range uint64(4) {
		rec := recordBatch(seed, 25, 4, 2)
		body, err := json.Marshal(wireBody(rec, "span", nil, seed%2 == 1, nil, false))
		if err != nil {
			t.Fatal(err)
		}
		if seed == 2 {
			var v any
			_ = json.Unmarshal(body, &v)
			body, _ = json.MarshalIndent(v, " ", "\t")
		}
		for trial := range 150 {
			b := append([]byte(nil), body...)
			if trial > 0 {
				const breakers = `{}[],:"\ 0a-.e`
				for range 1 + rng.IntN(3) {
					b[rng.IntN(len(b))] = breakers[rng.IntN(len(breakers))]
				}
			}
			par, ser, parErr, serErr := decodeBoth(b)
			if fmt.Sprint(parErr) != fmt.Sprint(serErr) {
				t.Fatalf("seed %d trial %d: parallel error %v, serial %v", seed, trial, parErr, serErr)
			}
			if serErr == nil && !reflect.DeepEqual(par, ser) {
				t.Fatalf("seed %d trial %d: parallel and serial requests differ", seed, trial)
			}
			checked++
			if serErr != nil {
				failed++
			}
		}
	}
	t.Logf("%d bodies, %d of them rejected, alike both ways", checked, failed)
}
