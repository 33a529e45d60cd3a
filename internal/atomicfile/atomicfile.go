package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Output files and folders get the modes any tool gives them (0644 and
// 0755, less the umask), not os.CreateTemp's 0600 and os.MkdirTemp's 0700.
const (
	FileMode fs.FileMode = 0o644
	DirMode  fs.FileMode = 0o755
)

// Write writes data to path through a temporary file in the same folder,
// synced, then renamed over path.
func Write(path string, data []byte) error {
	return WriteWith(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteWith is Write for data that fill streams to w (buffered), so a
// large file is never held whole in memory. An error from fill leaves
// path as it was.
func WriteWith(path string, fill func(w io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	bw := bufio.NewWriterSize(f, 1<<20)
	werr := fill(bw)
	if werr == nil {
		werr = bw.Flush()
	}
	merr := f.Chmod(FileMode &^ Umask())
	serr := f.Sync()
	cerr := f.Close()
	if err := errors.Join(werr, merr, serr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(f.Name(), path); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}

// MkdirTemp makes a new temporary folder in dir, as os.MkdirTemp does, but
// with DirMode less the umask: it is meant to be renamed into place.
func MkdirTemp(dir, pattern string) (string, error) {
	d, err := os.MkdirTemp(dir, pattern)
	if err != nil {
		return "", err
	}
	if err := os.Chmod(d, DirMode&^Umask()); err != nil {
		os.Remove(d)
		return "", err
	}
	return d, nil
}

// Umask is the process's file-mode creation mask, read from
// /proc/self/status (setting it to learn it would race with other
// goroutines); 022 where that is unavailable.
func Umask() fs.FileMode {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0o022
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "Umask:"); ok {
			if m, err := strconv.ParseUint(strings.TrimSpace(v), 8, 32); err == nil {
				return fs.FileMode(m) & 0o777
			}
		}
	}
	return 0o022
}
