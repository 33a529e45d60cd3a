package service_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/credo-rl/credo/service"
	_ "github.com/credo-rl/credo/task/arith"
)

// A server answers a verify request for a GSM8K record and an advantages
// request for the two responses' scores (docs/SERVICE.md).
func Example() {
	s, err := service.New(service.Options{})
	if err != nil {
		panic(err)
	}
	defer s.Close()
	hs := httptest.NewServer(s.Handler())
	defer hs.Close()
	ask := func(path, body string) string {
		resp, err := http.Post(hs.URL+path, "application/json", strings.NewReader(body))
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		out, _ := io.ReadAll(resp.Body)
		return string(out)
	}
	v := ask("/v1/verify", `{"format": "gsm8k", "items": [{"record": {"question": "2+2?", "answer": "#### 4"}, "responses": ["answer: 4", "answer: 5"]}]}`)
	fmt.Println(strings.Contains(v, `"rewards":["answer"]`), strings.Count(v, `"score":1`), strings.Count(v, `"score":0`))
	a := ask("/v1/advantages", `{"method": "grpo", "rewards": ["answer"], "responses": [
		{"group": 0, "response": "answer: 4", "tokens": [1, 2], "offsets": [[0, 7], [7, 9]], "scores": [1]},
		{"group": 0, "response": "answer: 5", "tokens": [1, 3], "offsets": [[0, 7], [7, 9]], "scores": [0]}]}`)
	fmt.Println(a[:strings.Index(a, `,"response_advantages"`)])
	// Output:
	// true 1 1
	// {"method":"grpo","advantages":[[0.7070067953266834,0.7070067953266834],[-0.7070067953266834,-0.7070067953266834]]
}
