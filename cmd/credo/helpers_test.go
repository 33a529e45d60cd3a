package main

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// closedURL is an http URL where nothing listens.
func closedURL(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/v1"
}

// failingJudge is an OpenAI-compatible server that lists model m, answers
// the judge's one-token start-up check, and fails every verdict with 500.
func failingJudge(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/models"):
			io.WriteString(w, `{"object":"list","data":[{"id":"m"}]}`)
		case r.Method == http.MethodPost:
			var req struct {
				MaxTokens int `json:"max_tokens"`
			}
			json.NewDecoder(r.Body).Decode(&req)
			if req.MaxTokens == 1 {
				io.WriteString(w, `{"choices":[{"message":{"content":"OK"}}]}`)
				return
			}
			http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusInternalServerError)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}
