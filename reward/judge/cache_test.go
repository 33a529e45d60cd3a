package judge

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/credo-rl/credo/reward"
)

func TestCache(t *testing.T) {
	release := make(chan struct{})
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, req seenRequest, n int) {
		<-release
		reply(w, answerJSON(0.5, "café"))
	})
	j := newJudge(t, testConfig(f))

	// Concurrent identical calls share one request.
	const callers = 6
	verdicts := make([]reward.Verdict, callers)
	errs := make([]error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() { verdicts[i], errs[i] = j.Verify(context.Background(), prompt, utf8Response) })
	}
	waitFor(t, "the first request", func() bool { return len(f.requests()) > 0 })
	time.Sleep(50 * time.Millisecond) // let the others arrive; without sharing they would reach the server
	close(release)
	wg.Wait()
	for i := range callers {
		if errs[i] != nil || verdicts[i].Score != 0.5 || len(verdicts[i].Spans) != 1 {
			t.Fatalf("caller %d: %+v, %v", i, verdicts[i], errs[i])
		}
	}
	if got := len(f.requests()); got != 1 {
		t.Fatalf("%d requests for %d concurrent identical calls", got, callers)
	}

	// A later identical call is a cache hit, and editing a returned verdict
	// does not change the cached one.
	verdicts[0].Spans[0].Start = 99
	v, err := j.Verify(context.Background(), prompt, utf8Response)
	if err != nil || v.Spans[0].Start == 99 || len(f.requests()) != 1 {
		t.Fatalf("cached verdict %+v, err %v, requests %d", v, err, len(f.requests()))
	}
	if metric(j, "cache_hits") != callers {
		t.Errorf("metrics %v", j.Metrics())
	}
	// Another response, or the same response to another prompt, is asked.
	j.Verify(context.Background(), prompt, utf8Response+" ")
	j.Verify(context.Background(), reward.Prompt{Text: "other"}, utf8Response)
	if got := len(f.requests()); got != 3 {
		t.Errorf("%d requests, want 3", got)
	}
}

func TestCacheDisabledAndBounded(t *testing.T) {
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, req seenRequest, n int) { reply(w, answerJSON(1)) })
	c := testConfig(f)
	c.CacheSize = 2
	j := newJudge(t, c)
	for _, r := range []string{"a", "b", "c", "a"} { // "a" was evicted by "c"
		j.Verify(context.Background(), prompt, r)
	}
	if got := len(f.requests()); got != 4 {
		t.Errorf("size-2 cache: %d requests, want 4", got)
	}
	c.CacheSize = -1
	j = newJudge(t, c)
	j.Verify(context.Background(), prompt, "a")
	j.Verify(context.Background(), prompt, "a")
	if got := len(f.requests()); got != 6 {
		t.Errorf("disabled cache: %d requests, want 6", got)
	}
}

func TestConcurrencyBound(t *testing.T) {
	const bound, calls = 3, 12
	var mu sync.Mutex
	inFlight, peak := 0, 0
	full := make(chan struct{})
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, req seenRequest, n int) {
		mu.Lock()
		inFlight++
		peak = max(peak, inFlight)
		if inFlight == bound && full != nil {
			close(full) // the bound is reached: release everyone
			full = nil
		}
		ch := full
		mu.Unlock()
		if ch != nil {
			select {
			case <-ch:
			case <-time.After(5 * time.Second):
			}
		}
		time.Sleep(2 * time.Millisecond) // overlap the next requests
		mu.Lock()
		inFlight--
		mu.Unlock()
		reply(w, answerJSON(1))
	})
	c := testConfig(f)
	c.MaxConcurrent = bound
	j := newJudge(t, c)
	var wg sync.WaitGroup
	for i := range calls {
		wg.Go(func() {
			if _, err := j.Verify(context.Background(), prompt, fmt.Sprint("response ", i)); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if peak != bound {
		t.Errorf("server saw at most %d concurrent requests, want exactly %d", peak, bound)
	}
}

func TestAPIKey(t *testing.T) {
	const key = "sk-live-abcdef123456"
	t.Setenv("CREDO_TEST_JUDGE_KEY", key)
	f := newFake(t, func(w http.ResponseWriter, r *http.Request, req seenRequest, n int) { reply(w, answerJSON(1)) })
	c := testConfig(f)
	c.APIKeyEnv = "CREDO_TEST_JUDGE_KEY"
	j := newJudge(t, c)
	if _, err := j.Verify(context.Background(), prompt, "r"); err != nil {
		t.Fatal(err)
	}
	if got := f.requests()[0].Auth; got != "Bearer "+key {
		t.Errorf("Authorization %q", got)
	}
	js, err := j.Config().MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{string(js), j.Config().String(), fmt.Sprintf("%+v", j.Config()), fmt.Sprint(j.Metrics())} {
		if strings.Contains(text, "abcdef") {
			t.Errorf("key in %q", text)
		}
		if !strings.Contains(text, "CREDO_TEST_JUDGE_KEY") && !strings.HasPrefix(text, "map[") {
			t.Errorf("the variable's name is missing from %q", text)
		}
	}

	// An unset variable fails before any request, naming the variable.
	t.Setenv("CREDO_TEST_JUDGE_KEY", "")
	v, err := j.Verify(context.Background(), prompt, "another")
	if err == nil || !strings.Contains(err.Error(), "CREDO_TEST_JUDGE_KEY") || v.Score != 0 || len(f.requests()) != 1 {
		t.Errorf("verdict %+v, err %v, %d requests", v, err, len(f.requests()))
	}
}
