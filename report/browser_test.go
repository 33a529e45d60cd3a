//go:build unix

package report

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"image/png"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// findChromium is Debian's chromium, or skips the test saying how to get it.
func findChromium(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	if _, err := os.Stat("/usr/bin/chromium"); err == nil {
		return "/usr/bin/chromium"
	}
	t.Skip("chromium not found: the browser test needs Debian's chromium (apt-get install -y chromium; .ci/run installs it)")
	return ""
}

// recorder serves one page at / and records every request that reaches
// it. Chromium uses it as its proxy for every host, loopback included, so
// any request the page makes, to any address, arrives here.
type recorder struct {
	page []byte
	mu   sync.Mutex
	seen []string
}

func (rc *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rc.mu.Lock()
	rc.seen = append(rc.seen, r.Method+" "+r.Host+" "+r.URL.String())
	rc.mu.Unlock()
	if r.Method == http.MethodGet && r.URL.Path == "/report.html" {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(rc.page)
		return
	}
	http.NotFound(w, r)
}

func (rc *recorder) requests() []string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]string(nil), rc.seen...)
}

// chromium runs headless Chromium on url with extra flags and returns its
// standard output. Its process group is killed when it returns, so no
// helper process outlives the test.
func chromium(t *testing.T, bin, proxy, url string, extra ...string) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 60*time.Second)
	defer cancel()
	args := []string{"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--disable-default-apps", "--disable-extensions", "--no-default-browser-check", "--disable-dev-shm-usage",
		"--disable-field-trial-config", "--disable-breakpad", "--disable-client-side-phishing-detection",
		"--disable-component-extensions-with-background-pages", "--disable-domain-reliability", "--no-pings",
		"--metrics-recording-only", "--password-store=basic", "--use-mock-keychain",
		"--disable-features=NetworkTimeServiceQuerying,OptimizationHints,MediaRouter,DialMediaRouteProvider,Translate,CertificateTransparencyComponentUpdater,AutofillServerCommunication,HttpsUpgrades,PreconnectToSearch,SearchEnginePreconnect2,SearchEnginePreconnectInterceptor,NavigationPredictor",
		"--proxy-server=" + proxy, "--proxy-bypass-list=<-loopback>",
		"--user-data-dir=" + t.TempDir()}
	cmd := exec.CommandContext(ctx, bin, append(append(args, extra...), url)...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) // helpers that outlived the browser
	}
	if err != nil {
		t.Fatalf("chromium %v: %v\n%s", extra, err, tail(stderr.String(), 2000))
	}
	return stdout.Bytes()
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// serve starts the recorder for page; url is the page's address.
func serve(t *testing.T, page []byte) (rc *recorder, proxy, url string) {
	rc = &recorder{page: page}
	srv := httptest.NewServer(rc)
	t.Cleanup(srv.Close)
	return rc, srv.URL, srv.URL + "/report.html"
}

var tagRE = regexp.MustCompile(`(?s)<style.*?</style>|<[^>]*>`)

// pageText is the text a reader sees in a dumped DOM.
func pageText(dom []byte) string {
	return html.UnescapeString(tagRE.ReplaceAllString(string(dom), " "))
}

// reportOf is the page Write makes of the directory fill writes.
func reportOf(t *testing.T, fill func(dir string)) []byte {
	t.Helper()
	dir := t.TempDir()
	fill(dir)
	path, err := Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// TestBrowser renders a comparison's report in headless Chromium: the
// screenshot is a real picture, the rendered text has the table, methods
// and rewards, and the only request is the page itself.
func TestBrowser(t *testing.T) {
	bin := findChromium(t)
	page := reportOf(t, func(dir string) { writeFixtureCompare(t, dir, []uint64{1, 2, 3}, 30) })
	rc, proxy, url := serve(t, page)

	shot := filepath.Join(t.TempDir(), "shot.png")
	chromium(t, bin, proxy, url, "--screenshot="+shot, "--window-size=1400,3000", "--hide-scrollbars")
	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v", err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if b := img.Bounds(); b.Dx() < 1000 || b.Dy() < 2000 {
		t.Errorf("screenshot is %v, want the 1400×3000 window", b)
	}
	colours := map[[3]uint32]int{}
	ink := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			colours[[3]uint32{r >> 8, g >> 8, bl >> 8}]++
			if r>>8 < 200 || g>>8 < 200 || bl>>8 < 200 {
				ink++
			}
		}
	}
	if total := (b.Dx() / 2) * (b.Dy() / 2); len(colours) < 50 || ink < total/100 {
		t.Errorf("screenshot looks empty: %d colours, %d of %d sampled pixels inked", len(colours), ink, total)
	}

	dom := chromium(t, bin, proxy, url, "--dump-dom")
	text := pageText(dom)
	for _, want := range []string{
		"credo report: toolcall", "Comparison", "method", "reward", "steps to 0.80", "final eval (greedy)", "credit overhead",
		"ΔAUC vs grpo [95% CI] sign-flip p, t-test pt", "Reward curves", "Credit diagnostics", "Token heatmaps", "A · final",
		"What a good result looks like", "Length and retention", "regressed while another reward rose", "What the runs show",
		"grpo", "gdpo", "span", "mrtpo", "format", "call", "q · format", "q · call",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("rendered page text lacks %q", want)
		}
	}
	if !strings.Contains(string(dom), `<svg class="chart"`) {
		t.Error("rendered DOM has no chart")
	}
	host := strings.TrimPrefix(proxy, "http://")
	pages := 0
	for _, r := range rc.requests() {
		switch h := requestHost(r); {
		case r == "GET "+host+" "+url:
			pages++
		case browserServices[h]:
			// Chromium's own traffic, not the page's.
		default:
			t.Errorf("unexpected request %q: the page must load nothing", r)
		}
	}
	if pages != 2 {
		t.Errorf("the page was requested %d times in %q, want 2 (once per run)", pages, rc.requests())
	}
}

// browserServices are hosts Chromium itself calls (updates, sign-in,
// clock, safe browsing) whatever page it shows; no flag silences all of
// them in every version. None serves web content a page could embed.
var browserServices = map[string]bool{
	"accounts.google.com": true, "update.googleapis.com": true, "clients2.google.com": true,
	"clientservices.googleapis.com": true, "safebrowsing.googleapis.com": true,
	"optimizationguide-pa.googleapis.com": true, "content-autofill.googleapis.com": true,
	"redirector.gvt1.com": true, "edgedl.me.gvt1.com": true,
	// Chromium 148 also preconnects to its default search engine and
	// registers for push messages, whatever the flags. A page that asked
	// for either would have to name it: html_test.go checks the page holds
	// no URL at all.
	"www.google.com": true, "android.clients.google.com": true,
}

// requestHost is the host name of a recorded request ("METHOD host url").
func requestHost(r string) string {
	f := strings.Fields(r)
	if len(f) < 2 {
		return ""
	}
	h := f[1]
	if i := strings.LastIndex(h, ":"); i >= 0 {
		h = h[:i]
	}
	return h
}

// TestBrowserSeesRequests is the control: a page that loads an image from
// elsewhere is caught, so TestBrowser's check can fail.
func TestBrowserSeesRequests(t *testing.T) {
	bin := findChromium(t)
	page := []byte(`<!DOCTYPE html><html><body><p>control</p><img src="http://example.invalid/pixel.png"></body></html>`)
	rc, proxy, url := serve(t, page)
	dom := chromium(t, bin, proxy, url, "--dump-dom")
	if !strings.Contains(string(dom), "control") {
		t.Fatalf("page not rendered: %s", dom)
	}
	got := fmt.Sprint(rc.requests())
	if !strings.Contains(got, "example.invalid") {
		t.Errorf("requests %s: the image request did not reach the recorder", got)
	}
}

// measureScript reports, after the page has loaded, its width and the
// comparison table's box as an attribute of <html>, which --dump-dom
// shows. The test adds it to its copy of the page; the report itself has
// no script.
const measureScript = `<script>
window.addEventListener("load", function () {
  var d = document.documentElement, box = document.getElementById("table-box");
  d.setAttribute("data-measure", JSON.stringify({page: d.scrollWidth, view: d.clientWidth,
    boxRight: box ? box.getBoundingClientRect().right : -1, boxScroll: box ? box.scrollWidth : -1, boxClient: box ? box.clientWidth : -1}));
});
</script>`

type measure struct {
	Page, View, BoxRight, BoxScroll, BoxClient float64
}

var measureRE = regexp.MustCompile(`data-measure="([^"]*)"`)

// measureAt loads page (with measureScript) in a window width px wide.
func measureAt(t *testing.T, bin string, page []byte, width int) measure {
	t.Helper()
	withScript := bytes.Replace(page, []byte("</body>"), []byte(measureScript+"</body>"), 1)
	_, proxy, url := serve(t, withScript)
	dom := chromium(t, bin, proxy, url, "--dump-dom", fmt.Sprintf("--window-size=%d,1200", width), "--hide-scrollbars", "--virtual-time-budget=3000")
	m := measureRE.FindSubmatch(dom)
	if m == nil {
		t.Fatalf("the measuring script did not run: %s", tail(string(dom), 500))
	}
	var got measure
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &struct {
		Page      *float64 `json:"page"`
		View      *float64 `json:"view"`
		BoxRight  *float64 `json:"boxRight"`
		BoxScroll *float64 `json:"boxScroll"`
		BoxClient *float64 `json:"boxClient"`
	}{&got.Page, &got.View, &got.BoxRight, &got.BoxScroll, &got.BoxClient}); err != nil {
		t.Fatal(err)
	}
	return got
}

// TestBrowserWidth: at 1,400 px the report of the widest comparison (six
// methods, three warm-ups: every column) has no horizontal overflow: the
// page is no wider than the window and the table's box ends inside it,
// while the table scrolls within its box. The control removes the box's
// scrolling and sees the page overflow, so the check can fail.
func TestBrowserWidth(t *testing.T) {
	bin := findChromium(t)
	page := reportOf(t, func(dir string) {
		writeFixtureWarmups(t, dir, []string{"grpo", "gdpo", "span", "mrtpo", "p2t", "saw+mrtpo"}, 3, []uint64{1, 2}, 20)
	})
	m := measureAt(t, bin, page, 1400)
	t.Logf("at 1400 px: %+v", m)
	if m.View > 1400 || m.Page > m.View || m.BoxRight > m.View || m.BoxClient <= 0 {
		t.Errorf("at 1400 px the page is %v px wide in a %v px view, the table's box ends at %v: it overflows", m.Page, m.View, m.BoxRight)
	}
	if m.BoxScroll <= m.BoxClient {
		t.Errorf("the table (%v px) fits its box (%v px): the fixture no longer tests the scrolling", m.BoxScroll, m.BoxClient)
	}
	const rule = ".scroll{max-width:100%;overflow-x:auto}"
	if !bytes.Contains(page, []byte(rule)) {
		t.Fatalf("the page has no rule %q to remove for the control", rule)
	}
	control := measureAt(t, bin, bytes.Replace(page, []byte(rule), nil, 1), 1400)
	if control.Page <= 1400 {
		t.Errorf("control: without the scroll box the page is %v px wide at 1400: the check could not fail", control.Page)
	}
}
