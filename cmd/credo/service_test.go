package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
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
// start-up check at once and every verdict after a pause, quoting "great".
func slowJudge(t *testing.T, pause time.Duration, asked chan<- struct{}) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
			io.WriteString(w, `{"object":"list","data":[{"id":"m"}]}`)
		case r.Method == http.MethodPost:
			var req struct {
				MaxTokens int `json:"max_tokens"`
			}
			json.NewDecoder(r.Body).Decode(&req)
			if req.MaxTokens != 1 {
				asked <- struct{}{}
				time.Sleep(pause)
			}
			content, _ := json.Marshal(`{"score": 0.75, "evidence": [{"quote": "great", "effect": "+"}]}`)
			io.WriteString(w, `{"choices":[{"message":{"content":`+string(content)+`}}]}`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

// TestService starts `credo serve` on a free port with a key and a judge,
// asks it over HTTP, then cancels its context as SIGTERM does while a
// verify request waits on the judge: that request still gets its answer,
// and the command stops cleanly.
func TestService(t *testing.T) {
	asked := make(chan struct{}, 16)
	judgeURL := slowJudge(t, 400*time.Millisecond, asked)
	t.Setenv("CREDO_SERVICE_TEST_KEY", "s3cret")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr lockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- runService(ctx, []string{"--addr", "127.0.0.1:0", "--api-key-env", "CREDO_SERVICE_TEST_KEY",
			"--judge", "name=quality,url=" + judgeURL + ",model=m"}, pw, &stderr)
		pw.Close()
	}()
	lines := make(chan string, 8)
	go func() {
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	first, ok := <-lines
	if !ok {
		t.Fatalf("runService printed nothing: %v\n%s", <-done, stderr.String())
	}
	base, _, _ := strings.Cut(strings.TrimPrefix(first, "credo serve: listening on "), " ")
	if !strings.HasPrefix(base, "http://127.0.0.1:") {
		t.Fatalf("first line %q", first)
	}
	ask := func(path, key, body string) (int, map[string]any) {
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
		if body == "" {
			req.Method = "GET"
		}
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
	code, tasks := ask("/v1/tasks", "s3cret", "")
	if code != 200 || !strings.Contains(mustMarshal(tasks["judges"]), `"quality"`) {
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
	var rest []string
	for l := range lines {
		rest = append(rest, l)
	}
	if len(rest) != 1 || rest[0] != "credo serve: stopped" {
		t.Errorf("after the first line: %q", rest)
	}
	if _, err := net.Dial("tcp", strings.TrimPrefix(base, "http://")); err == nil {
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
