package atomicfile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestWrite(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	for _, s := range []string{"first", "second"} {
		if err := Write(p, []byte(s)); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(p); string(b) != s {
			t.Fatalf("read %q, want %q", b, s)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries left, want 1", len(entries))
	}
	if err := Write(filepath.Join(dir, "missing", "f"), nil); err == nil {
		t.Error("writing into a missing folder succeeded")
	}
}

// TestWriteWith: streamed data lands whole; a fill that fails part way
// leaves the old file as it was and no temporary file behind.
func TestWriteWith(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "big.bin")
	if err := WriteWith(p, func(w io.Writer) error {
		for range 3 {
			if _, err := w.Write(bytes.Repeat([]byte("x"), 1<<20)); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(p); err != nil || fi.Size() != 3<<20 {
		t.Fatalf("stat %v, %v: want 3 MiB", fi, err)
	}
	failed := errors.New("disk gone")
	err := WriteWith(p, func(w io.Writer) error {
		w.Write([]byte("half"))
		return failed
	})
	if !errors.Is(err, failed) {
		t.Errorf("error %v, want the fill's", err)
	}
	if fi, _ := os.Stat(p); fi.Size() != 3<<20 {
		t.Errorf("a failed write changed the file (%d bytes)", fi.Size())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries left, want 1", len(entries))
	}
}

// TestModes: files are written 0644 and folders made 0755, less the
// process's umask, like any other tool's (issue 14: os.CreateTemp's 0600
// and os.MkdirTemp's 0700 leaked into outputs).
func TestModes(t *testing.T) {
	mask := Umask()
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := Write(p, []byte("x")); err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o644&^mask {
		t.Errorf("file mode %v, want %v", st.Mode().Perm(), os.FileMode(0o644&^mask))
	}
	d, err := MkdirTemp(dir, ".x.tmp*")
	if err != nil {
		t.Fatal(err)
	}
	if st, _ := os.Stat(d); st.Mode().Perm() != 0o755&^mask || !st.IsDir() {
		t.Errorf("folder mode %v, want %v", st.Mode().Perm(), os.FileMode(0o755&^mask))
	}
	if mask&0o200 != 0 || mask > 0o777 {
		t.Errorf("umask %o is not one a process could have", mask)
	}
}
