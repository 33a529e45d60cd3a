package judge_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/reward/judge"
)

// A judge pointed at a local chat-completions server (here a stand-in that
// always gives the same verdict): the score, the spans of the quoted parts,
// and the counters the trainer logs.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		verdict := `{"score": 0.6, "evidence": [
			{"quote": "Paris is the capital", "effect": "+"},
			{"quote": "about  2 million", "effect": "-"},
			{"quote": "founded by Romans", "effect": "-"}]}`
		json.NewEncoder(w).Encode(map[string]any{
			"choices": []any{map[string]any{"message": map[string]any{"role": "assistant", "content": verdict}}},
		})
	}))
	defer srv.Close()

	j, err := judge.New(judge.Config{Name: "facts", URL: srv.URL + "/v1", Model: "local-judge"},
		judge.WithHTTPClient(srv.Client()))
	if err != nil {
		fmt.Println(err)
		return
	}
	p := reward.Prompt{ID: "q1", Text: "Tell me about Paris."}
	response := "Paris is the capital of France.\nIts population is about 2 million."
	for range 2 { // the second call is answered from the cache
		v, err := j.Verify(context.Background(), p, response)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("score %.1f\n", v.Score)
		for _, s := range v.Spans {
			fmt.Printf("  [%d, %d) %q\n", s.Start, s.End, response[s.Start:s.End])
		}
		fmt.Println(" ", v.Reason)
	}
	m := j.Metrics()
	fmt.Println("requests", m["judge/facts/requests"], "cache hits", m["judge/facts/cache_hits"],
		"quotes found", m["judge/facts/quotes_found"], "dropped", m["judge/facts/quotes_dropped"])
	// Output:
	// score 0.6
	//   [0, 20) "Paris is the capital"
	//   [50, 65) "about 2 million"
	//   1 of 3 quotes not found in the response
	// score 0.6
	//   [0, 20) "Paris is the capital"
	//   [50, 65) "about 2 million"
	//   1 of 3 quotes not found in the response
	// requests 1 cache hits 1 quotes found 2 dropped 1
}

// A judge added from the command line's spec, through the reward registry.
func ExampleParseSpec() {
	c, err := judge.ParseSpec("name=style,url=http://localhost:8000/v1,model=qwen2.5-7b,key_env=JUDGE_KEY,weight=0.5,max=10")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Name, c.Weight, c.Min, c.Max, c.Timeout, c.APIKeyEnv)
	_, err = judge.ParseSpec("url=http://localhost:8000/v1,model=m,temprature=0")
	fmt.Println(err)
	// Output:
	// style 0.5 0 10 30s JUDGE_KEY
	// judge spec: unknown key "temprature" (known: backoff, backoff_max, cache, concurrency, key_env, max, max_tokens, min, model, name, retries, rubric, schema, seed, temperature, timeout, url, weight)
}
