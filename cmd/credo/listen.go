package main

import (
	"errors"
	"fmt"
	"net"
	"syscall"
)

// listen opens addr for a server command; a busy port's error says which
// flag moves the server (issue 49: "bind: address already in use" named
// none).
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return nil, fmt.Errorf("listen: %w\n(another server holds %s: stop it, or pass --addr with another port; port 0 picks a free one)", err, addr)
	case err != nil:
		return nil, fmt.Errorf("listen: %w", err)
	}
	return ln, nil
}
