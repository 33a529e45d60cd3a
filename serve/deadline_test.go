package serve_test

import (
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/credo-rl/credo/serve"
)

// TestSlowClientCutOff: a client that sends its body, or its headers, one
// byte a second, and one that keeps a connection open without asking
// anything more, are cut off at the server's deadlines (issue 26: a slow
// body held a serve-model connection for as long as the client liked).
func TestSlowClientCutOff(t *testing.T) {
	const limit = time.Second
	f := &forced{text: "ok", finish: "stop"}
	srv := serve.NewServer(serve.Handler(tinyPolicy(t, 256), serve.Options{Generate: f.generate}),
		serve.Timeouts{ReadHeader: limit, Read: 2 * limit, Idle: limit})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	addr := ln.Addr().String()
	body := `{"messages": [{"role": "user", "content": "hello"}]}`
	for _, tc := range []struct {
		name, head, trickle string
	}{
		{"body one byte a second", "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: " + itoa(len(body)) + "\r\n\r\n", body},
		{"headers one byte a second", "POST /v1/chat/completions HTTP/1.1\r\n", "Host: x\r\nContent-Type: application/json\r\n\r\n"},
		{"idle after a request", "GET /v1/models HTTP/1.1\r\nHost: x\r\n\r\n", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			closed := make(chan time.Time, 1)
			go func() { io.Copy(io.Discard, conn); closed <- time.Now() }()
			start := time.Now()
			if _, err := io.WriteString(conn, tc.head); err != nil {
				t.Fatal(err)
			}
			for i := 0; ; i++ {
				if i < len(tc.trickle) {
					if _, err := conn.Write([]byte{tc.trickle[i]}); err != nil && !errors.Is(err, net.ErrClosed) {
						t.Logf("write refused after %v: %v", time.Since(start).Round(time.Millisecond), err)
					}
				}
				select {
				case at := <-closed:
					t.Logf("cut off after %v, %d bytes sent one a second", at.Sub(start).Round(time.Millisecond), min(i+1, len(tc.trickle)))
					return
				case <-time.After(time.Second):
				}
				if time.Since(start) > 10*limit { // a hang, not a timing check
					t.Fatalf("still connected after %v (deadlines %v)", time.Since(start).Round(time.Second), limit)
				}
			}
		})
	}
	t.Run("a quick client is served", func(t *testing.T) {
		resp, err := http.Post("http://"+addr+"/v1/chat/completions", "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("status %d", resp.StatusCode)
		}
	})
}

func itoa(n int) string {
	var b []byte
	for ; n > 0 || len(b) == 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}
