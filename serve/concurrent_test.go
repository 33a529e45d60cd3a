package serve_test

import (
	"fmt"
	"net/http/httptest"
	"reflect"
	"sync"
	"testing"

	"github.com/credo-rl/credo/serve"
)

// TestConcurrentRealPolicy: concurrent requests to the real model all
// succeed (it is not safe for concurrent use, so the server takes turns)
// and each answers exactly what it answers alone.
func TestConcurrentRealPolicy(t *testing.T) {
	srv := httptest.NewServer(serve.Handler(tinyPolicy(t, 256), serve.Options{}))
	defer srv.Close()
	body := func(i int) string {
		return fmt.Sprintf(`{"messages": [{"role": "user", "content": "question %d"}], "max_tokens": 8, "n": 2, "seed": %d}`, i, i)
	}
	const k = 4
	alone := make([][]string, k)
	for i := range k {
		alone[i] = texts(decode(t, do(t, srv.Client(), "POST", srv.URL+"/v1/chat/completions", body(i))))
	}
	together := make([]reply, k)
	var wg sync.WaitGroup
	for i := range k {
		wg.Go(func() { together[i] = do(t, srv.Client(), "POST", srv.URL+"/v1/chat/completions", body(i)) })
	}
	wg.Wait()
	for i, r := range together {
		if got := texts(decode(t, r)); !reflect.DeepEqual(got, alone[i]) {
			t.Errorf("request %d: %q together, %q alone", i, got, alone[i])
		}
	}
}
