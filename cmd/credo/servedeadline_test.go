package main

import (
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// TestServeModelCutsSlowClient: `serve-model --read-timeout 1s` cuts off a
// client that sends its body one byte a second (issue 26: such a client
// held a connection for as long as it liked).
func TestServeModelCutsSlowClient(t *testing.T) {
	sv := startServe(t, "--model", tinyCheckpoint(t), "--addr", "127.0.0.1:0", "--read-timeout", "1s", "--idle-timeout", "1s", "--quiet")
	addr := strings.TrimSuffix(strings.TrimPrefix(sv.base, "http://"), "/v1")
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	closed := make(chan struct{})
	go func() { io.Copy(io.Discard, conn); close(closed) }()
	body := `{"messages": [{"role": "user", "content": "hi"}]}`
	io.WriteString(conn, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 52\r\n\r\n")
	start := time.Now()
	for i := 0; ; i++ {
		conn.Write([]byte{body[i%len(body)]})
		select {
		case <-closed:
			t.Logf("cut off after %v", time.Since(start).Round(time.Millisecond))
			if err := sv.stop(); err != nil {
				t.Error(err)
			}
			return
		case <-time.After(time.Second):
		}
		if time.Since(start) > 15*time.Second { // a hang, not a timing check
			t.Fatal("a client sending one byte a second is still connected after 15 s")
		}
	}
}
