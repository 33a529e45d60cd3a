package main

import (
	"context"
	"net"
	"strings"
	"testing"
)

// TestBusyPortNamesAddr: a server command on a port another holds fails
// (exit 1) with the error and the flag that moves it (issue 49).
func TestBusyPortNamesAddr(t *testing.T) {
	held, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	addr := held.Addr().String()
	if _, err := listen(addr); err == nil || !strings.Contains(err.Error(), "address already in use") || !strings.Contains(err.Error(), "pass --addr") {
		t.Errorf("listen on a busy port: %v", err)
	}
	code, _, errw := credo(context.Background(), "serve", "--addr", addr)
	if code != 1 || !strings.Contains(errw, "pass --addr with another port") {
		t.Errorf("serve on a busy port: exit %d, %q", code, errw)
	}
	ln, err := listen("127.0.0.1:0")
	if err != nil {
		t.Fatalf("listen on a free port: %v", err)
	}
	ln.Close()
}
