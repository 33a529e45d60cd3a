package redact

import (
	"regexp"
	"strings"
)

// userinfo matches the user[:password]@ part that follows a URL's
// scheme://, up to the first character that cannot belong to it.
var userinfo = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)([^/?#@\s,"']*)@`)

// Masked is what a URL's user information becomes.
const Masked = "***"

// URLs is s with the user information of every URL in it (user name and
// password) replaced by Masked, and whether there was any.
func URLs(s string) (string, bool) {
	if !strings.Contains(s, "@") {
		return s, false
	}
	found := false
	out := userinfo.ReplaceAllStringFunc(s, func(m string) string {
		found = true
		scheme, _, _ := strings.Cut(m, "://")
		return scheme + "://" + Masked + "@"
	})
	return out, found
}

// String is s with the user information of its URLs masked.
func String(s string) string {
	out, _ := URLs(s)
	return out
}
