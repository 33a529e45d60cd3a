package judge

import (
	"context"
	"fmt"
	"net/http"
	"testing"
)

// BenchmarkVerifyServer is one full verdict against a local server: request
// encoding, HTTP round trip, answer parsing and quote location (no cache).
func BenchmarkVerifyServer(b *testing.B) {
	srv := newFake(b, func(w http.ResponseWriter, r *http.Request, req seenRequest, n int) {
		reply(w, answerJSON(0.8, "coûte 3 €", "コーヒーは三ユーロです"))
	})
	c := testConfig(srv)
	c.CacheSize = -1
	j, err := New(c, WithHTTPClient(srv.Client()))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := j.Verify(context.Background(), prompt, utf8Response); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkVerifyCached is a verdict answered from the cache: hashing the
// (metric, prompt, response) key and copying the spans.
func BenchmarkVerifyCached(b *testing.B) {
	srv := newFake(b, func(w http.ResponseWriter, r *http.Request, req seenRequest, n int) {
		reply(w, answerJSON(0.8, "coûte 3 €"))
	})
	j, err := New(testConfig(srv))
	if err != nil {
		b.Fatal(err)
	}
	resp := fmt.Sprint(utf8Response, " ", string(make([]byte, 4000))) // a 4 KB response
	j.Verify(context.Background(), prompt, resp)
	for b.Loop() {
		if _, err := j.Verify(context.Background(), prompt, resp); err != nil {
			b.Fatal(err)
		}
	}
}
