package judge

import (
	"strings"
	"testing"
)

// TestURLCredentialsRefused: a judge URL that carries a user name or a
// password is refused, pointing to key_env, and the message holds no
// secret (issue 26: https://user:secret@host/v1 was saved in config.json
// and printed in errors).
func TestURLCredentialsRefused(t *testing.T) {
	for _, spec := range []string{
		"name=q,url=https://user:s3cr3t@judge.example/v1,model=m",
		"name=q,url=http://s3cr3t@127.0.0.1:8080/v1,model=m",
		"name=q,url=https://user:s3cr3t@bad host/v1,model=m",  // a URL that does not parse
		"name=q,https://user:s3cr3t@judge.example/v1,model=m", // not key=value
	} {
		_, err := ParseSpec(spec)
		if err == nil {
			t.Errorf("%s: accepted", spec)
			continue
		}
		if strings.Contains(err.Error(), "s3cr3t") {
			t.Errorf("%s: the error shows the secret: %v", spec, err)
		}
		if strings.Contains(spec, ",url=") && !strings.Contains(spec, "bad host") && !strings.Contains(err.Error(), "key_env") {
			t.Errorf("%s: the error does not point to key_env: %v", spec, err)
		}
	}
	if _, err := New(Config{Name: "q", URL: "https://user:s3cr3t@judge.example/v1", Model: "m"}); err == nil || strings.Contains(err.Error(), "s3cr3t") {
		t.Errorf("New with credentials in the URL: %v", err)
	}
}
