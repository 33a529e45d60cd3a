package boundedread

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestReadFile: a regular file within its limit is read; a device, a FIFO,
// a folder and a file over its limit are errors at once, naming what is
// wrong; a missing file is fs.ErrNotExist.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.json")
	os.WriteFile(ok, []byte(`{"a": 1}`), 0o644)
	link := filepath.Join(dir, "link.json")
	os.Symlink(ok, link)
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path  string
		limit int64
		want  string // "" reads
	}{
		{ok, 8, ""},
		{link, 8, ""},
		{ok, 7, "8 bytes, more than 7 bytes"},
		{"/dev/zero", Settings, "/dev/zero is a device, not a regular file"},
		{fifo, Settings, "is a FIFO"},
		{dir, Settings, "is a folder"},
	} {
		start := time.Now()
		data, err := ReadFile(tc.path, tc.limit)
		switch {
		case tc.want == "" && (err != nil || string(data) != `{"a": 1}`):
			t.Errorf("ReadFile(%s): %q, %v", tc.path, data, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("ReadFile(%s, %d): %v, want %q", tc.path, tc.limit, err, tc.want)
		}
		if time.Since(start) > 5*time.Second { // a hang, not a timing check
			t.Errorf("ReadFile(%s) took %v", tc.path, time.Since(start))
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "none"), Settings); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}
