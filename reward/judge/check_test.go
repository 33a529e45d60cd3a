package judge

import (
	"context"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestCheck: the start-up check says clearly what is wrong (issue 14: with
// nothing listening, or a wrong model name, every verdict failed and
// looked like a score of 0).
func TestCheck(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	server := func(models string, chat int) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.Method == http.MethodGet && r.URL.Path == "/v1/models" && models != "":
				io.WriteString(w, models)
			case r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions" && chat == http.StatusOK:
				io.WriteString(w, `{"choices":[{"message":{"content":"OK"},"finish_reason":"length"}]}`)
			case r.Method == http.MethodPost && r.URL.Path == "/v1/chat/completions":
				http.Error(w, `{"error":{"message":"no"}}`, chat)
			default:
				http.NotFound(w, r)
			}
		}))
		t.Cleanup(srv.Close)
		return srv.URL + "/v1"
	}
	const list = `{"object":"list","data":[{"id":"credo"},{"id":"other"}]}`
	for _, tc := range []struct {
		name, url, model string
		want             string // "" for no error
	}{
		{"nothing listening", closed, "credo", "cannot reach the server"},
		{"unknown model", server(list, 200), "qwen", `does not serve model "qwen" (it serves: credo, other)`},
		{"listed model", server(list, 200), "credo", ""},
		{"no model list", server("", 200), "m", ""},
		{"404 on completions", server("", 404), "m", "answered 404"},
		{"key refused", server(list, 401), "credo", "refused the request"},
		{"server error", server(list, 500), "credo", "test request"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j, err := New(Config{Name: "q", URL: tc.url, Model: tc.model})
			if err != nil {
				t.Fatal(err)
			}
			err = j.Check(context.Background())
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Check: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("Check: %v, want an error mentioning %q", err, tc.want)
			}
		})
	}
}
