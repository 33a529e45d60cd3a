package service

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// latencyBuckets are the request-duration histogram's upper bounds, in
// seconds: 1 ms to 60 s.
var latencyBuckets = []float64{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60}

// histogram is one endpoint's latency distribution.
type histogram struct {
	counts []uint64 // per bucket, not cumulative; the last is +Inf
	sum    float64
	n      uint64
}

// metrics are the counters of GET /metrics (docs/SERVICE.md §2). One mutex
// guards them: a request updates them once, far from any hot loop.
type metrics struct {
	mu        sync.Mutex
	requests  map[[2]string]uint64 // endpoint, code
	latency   map[string]*histogram
	errors    map[string]uint64 // kind
	inFlight  int
	verdicts  map[string]uint64 // reward
	vfailures map[string]uint64 // reward
}

func newMetrics() *metrics {
	m := &metrics{requests: map[[2]string]uint64{}, latency: map[string]*histogram{}, errors: map[string]uint64{},
		verdicts: map[string]uint64{}, vfailures: map[string]uint64{}}
	for _, k := range errorKinds {
		m.errors[k] = 0
	}
	return m
}

func (m *metrics) start() {
	m.mu.Lock()
	m.inFlight++
	m.mu.Unlock()
}

// done records one finished request.
func (m *metrics) done(endpoint string, code int, kind string, d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.inFlight--
	m.requests[[2]string{endpoint, strconv.Itoa(code)}]++
	if kind != "" {
		m.errors[kind]++
	}
	h := m.latency[endpoint]
	if h == nil {
		h = &histogram{counts: make([]uint64, len(latencyBuckets)+1)}
		m.latency[endpoint] = h
	}
	s := d.Seconds()
	b, _ := slices.BinarySearch(latencyBuckets, s)
	h.counts[b]++
	h.sum += s
	h.n++
}

// verified records a verify request's verdicts and failures per reward.
func (m *metrics) verified(names []string, n, failures []int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for k, name := range names {
		m.verdicts[name] += uint64(n[k])
		m.vfailures[name] += uint64(failures[k])
	}
}

// write renders the Prometheus text format, version 0.0.4, in a fixed
// order (sorted labels), so scrapes are comparable.
func (m *metrics) write(w io.Writer) {
	m.mu.Lock()
	defer m.mu.Unlock()
	fmt.Fprintln(w, "# HELP credo_requests_total Requests answered, by endpoint and HTTP status.")
	fmt.Fprintln(w, "# TYPE credo_requests_total counter")
	reqs := make([][2]string, 0, len(m.requests))
	for k := range m.requests {
		reqs = append(reqs, k)
	}
	slices.SortFunc(reqs, func(a, b [2]string) int {
		if c := cmp.Compare(a[0], b[0]); c != 0 {
			return c
		}
		return cmp.Compare(a[1], b[1])
	})
	for _, k := range reqs {
		fmt.Fprintf(w, "credo_requests_total{endpoint=%s,code=%s} %d\n", label(k[0]), label(k[1]), m.requests[k])
	}
	fmt.Fprintln(w, "# HELP credo_request_duration_seconds Time from a request's arrival to its answer.")
	fmt.Fprintln(w, "# TYPE credo_request_duration_seconds histogram")
	for _, ep := range sortedKeys(m.latency) {
		h := m.latency[ep]
		var cum uint64
		for b, le := range latencyBuckets {
			cum += h.counts[b]
			fmt.Fprintf(w, "credo_request_duration_seconds_bucket{endpoint=%s,le=%q} %d\n", label(ep), strconv.FormatFloat(le, 'g', -1, 64), cum)
		}
		fmt.Fprintf(w, "credo_request_duration_seconds_bucket{endpoint=%s,le=\"+Inf\"} %d\n", label(ep), h.n)
		fmt.Fprintf(w, "credo_request_duration_seconds_sum{endpoint=%s} %s\n", label(ep), strconv.FormatFloat(h.sum, 'g', -1, 64))
		fmt.Fprintf(w, "credo_request_duration_seconds_count{endpoint=%s} %d\n", label(ep), h.n)
	}
	counter := func(name, help, key string, vals map[string]uint64) {
		fmt.Fprintf(w, "# HELP %s %s\n# TYPE %s counter\n", name, help, name)
		for _, k := range sortedKeys(vals) {
			fmt.Fprintf(w, "%s{%s=%s} %d\n", name, key, label(k), vals[k])
		}
	}
	counter("credo_errors_total", "Error answers, by kind.", "kind", m.errors)
	fmt.Fprintf(w, "# HELP credo_in_flight_requests Requests being served.\n# TYPE credo_in_flight_requests gauge\ncredo_in_flight_requests %d\n", m.inFlight)
	counter("credo_verdicts_total", "Verdicts computed, by reward.", "reward", m.verdicts)
	counter("credo_verdict_errors_total", "Verdicts whose verifier failed (scored 0), by reward.", "reward", m.vfailures)
}

// label quotes a Prometheus label value: backslash, double quote and
// newline escaped, everything else as it is.
func label(v string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(v) + `"`
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
