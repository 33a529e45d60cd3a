package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// slowJudge is an OpenAI-compatible judge that lists model m, answers the
// start-up check (a one-token completion) at once and every verdict after
// a pause, quoting "great" as a "+".
func slowJudge(t *testing.T, pause time.Duration, asked chan<- struct{}) string {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/models", func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte(`{"object":"list","data":[{"id":"m"}]}`))
	})
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			MaxTokens int `json:"max_tokens"`
		}
		json.NewDecoder(r.Body).Decode(&req)
		if req.MaxTokens != 1 {
			asked <- struct{}{}
			time.Sleep(pause)
		}
		content, _ := json.Marshal(`{"score": 0.75, "evidence": [{"quote": "great", "effect": "+"}]}`)
		fmt.Fprintf(w, `{"choices":[{"message":{"content":%s}}]}`, content)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// freeAddr is a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// TestService starts `credo serve` with a key and a judge, asks it over
// HTTP, then cancels its context as SIGTERM does while a verify request
// waits on the judge: that request still gets its answer, and the command
// stops cleanly, the port closed.
func TestService(t *testing.T) {
	asked := make(chan struct{}, 16)
	judgeURL := slowJudge(t, 400*time.Millisecond, asked)
	t.Setenv("CREDO_SERVICE_TEST_KEY", "s3cret")
	addr := freeAddr(t)
	base := "http://" + addr
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- runService(ctx, []string{"--addr", addr, "--api-key-env", "CREDO_SERVICE_TEST_KEY",
			"--judge", "name=quality,url=" + judgeURL + ",model=m"}, &stdout, &stderr)
	}()
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) { // until it answers (a hang, not a timing check)
		if resp, err := http.Get(base + "/healthz"); err == nil {
			resp.Body.Close()
			break
		}
		select {
		case err := <-done:
			t.Fatalf("runService: %v\n%s", err, stderr.String())
		default:
		}
		if time.Since(start) > 30*time.Second {
			t.Fatal("credo serve did not start")
		}
	}
	ask := func(path, key, body string) (int, map[string]any) {
		method := http.MethodPost
		if body == "" {
			method = http.MethodGet
		}
		req, _ := http.NewRequest(method, base+path, strings.NewReader(body))
		if key != "" {
			req.Header.Set("Authorization", "Bearer "+key)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Error(err)
			return 0, nil
		}
		defer resp.Body.Close()
		var out map[string]any
		json.NewDecoder(resp.Body).Decode(&out)
		return resp.StatusCode, out
	}
	if code, _ := ask("/v1/tasks", "", ""); code != 401 {
		t.Errorf("without the key: %d", code)
	}
	if code, tasks := ask("/v1/tasks", "s3cret", ""); code != 200 || !strings.Contains(mustMarshal(tasks["judges"]), `"quality"`) {
		t.Errorf("tasks: %d %v", code, tasks["judges"])
	}
	verify := `{"format": "gsm8k", "items": [{"record": {"question": "2+2?", "answer": "#### 4"}, "responses": ["It is great.\nanswer: 4"]}]}`
	var wg sync.WaitGroup
	var vcode int
	var vout map[string]any
	wg.Go(func() { vcode, vout = ask("/v1/verify", "s3cret", verify) })
	<-asked // the verify request is in flight, waiting on the judge
	cancel()
	wg.Wait()
	if vcode != 200 || !strings.Contains(mustMarshal(vout["rewards"]), `"quality"`) || !strings.Contains(mustMarshal(vout["items"]), `"effect":"+"`) {
		t.Errorf("the request in flight at shutdown: %d %v", vcode, vout)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("runService after cancel: %v", err)
		}
	case <-time.After(30 * time.Second): // a hang, not a timing check
		t.Fatal("runService did not stop")
	}
	if out := stdout.String(); out != "credo serve: listening on "+base+" (docs/SERVICE.md)\ncredo serve: stopped\n" {
		t.Errorf("stdout %q", out)
	}
	if _, err := net.Dial("tcp", addr); err == nil {
		t.Error("the port still accepts connections")
	}
	if log := stderr.String(); !strings.Contains(log, "POST /v1/verify 200") || !strings.Contains(log, "GET /v1/tasks 401") {
		t.Errorf("request log:\n%s", log)
	}
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func TestServiceUsage(t *testing.T) {
	t.Setenv("CREDO_EMPTY_KEY", "")
	for _, args := range [][]string{
		{"--max-body", "lots"}, {"--max-body", "0"}, {"--concurrency", "0"}, {"--deadline", "0s"},
		{"--api-key-env", "CREDO_EMPTY_KEY"}, {"--sql-dir", "/nonexistent/credo"}, {"--prm", "/nonexistent/credo"},
		{"--judge", "name=q"}, {"extra"},
	} {
		err := runService(context.Background(), append([]string{"--addr", "127.0.0.1:0"}, args...), io.Discard, io.Discard)
		var ue usageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
	for in, want := range map[string]int64{"256MiB": 256 << 20, "1000": 1000, "2 GiB": 2 << 30, "64KB": 64 << 10} {
		if got, err := parseBytes(in); err != nil || got != want {
			t.Errorf("parseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
}
