package serve

import (
	"net/http"
	"time"
)

// Defaults of Timeouts' fields.
const (
	DefaultReadHeaderTimeout = 10 * time.Second
	// DefaultReadTimeout lets a client send the largest body
	// (DefaultMaxBodyBytes, 1 MiB) at 35 kB/s.
	DefaultReadTimeout = 30 * time.Second
	DefaultIdleTimeout = time.Minute
)

// Timeouts bound how long a client may hold a connection without doing
// its part: a slow client is cut off instead of holding it for ever. Zero
// fields take the defaults. There is no write deadline: a request may
// wait in the queue and then generate for as long as its tokens take.
type Timeouts struct {
	ReadHeader time.Duration // the request line and headers
	Read       time.Duration // the whole request, body included
	Idle       time.Duration // a kept-alive connection between requests
}

// NewServer is the HTTP server for h with t's deadlines.
func NewServer(h http.Handler, t Timeouts) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: orDefault(t.ReadHeader, DefaultReadHeaderTimeout),
		ReadTimeout:       orDefault(t.Read, DefaultReadTimeout),
		IdleTimeout:       orDefault(t.Idle, DefaultIdleTimeout),
	}
}

func orDefault(d, def time.Duration) time.Duration {
	if d > 0 {
		return d
	}
	return def
}
