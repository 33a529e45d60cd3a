package redact

import (
	"strings"
	"testing"
)

func TestURLs(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		found    bool
	}{
		{"name=q,url=https://user:secret@host/v1,model=m", "name=q,url=https://***@host/v1,model=m", true},
		{"http://token@127.0.0.1:8080/v1", "http://***@127.0.0.1:8080/v1", true},
		{`parse "https://u:p@bad host/v1": invalid`, `parse "https://***@bad host/v1": invalid`, true},
		{"two: a://x:y@h and b://z@k", "two: a://***@h and b://***@k", true},
		{"https://host/v1?to=a@b.c", "https://host/v1?to=a@b.c", false},
		{"mail me at a@b.c, or http://host/v1", "mail me at a@b.c, or http://host/v1", false},
		{"no url here", "no url here", false},
	} {
		got, found := URLs(tc.in)
		if got != tc.want || found != tc.found {
			t.Errorf("URLs(%q) = %q, %v; want %q, %v", tc.in, got, found, tc.want, tc.found)
		}
	}
}

func FuzzURLs(f *testing.F) {
	f.Add("https://user:secret@host/v1")
	f.Add("x://@")
	f.Fuzz(func(t *testing.T, s string) {
		out, found := URLs(s)
		if again, _ := URLs(out); again != out {
			t.Errorf("URLs is not idempotent on %q: %q then %q", s, out, again)
		}
		if found && !strings.Contains(out, Masked) {
			t.Errorf("URLs(%q) found credentials but masked none: %q", s, out)
		}
	})
}
