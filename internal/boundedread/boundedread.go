package boundedread

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// The limits, by what a file holds: each is far above any real file of
// its kind and far below what would strain a machine.
const (
	// Settings: --config and --train-config files, a run's config.json, a
	// model's config.json, a tokenizer's descriptor, a PRM's info file.
	Settings int64 = 1 << 20
	// Rubric is a judge's rubric.
	Rubric int64 = 256 << 10
	// Record: the JSON records credo writes beside its results (state.json,
	// checksums.json, warmup.json, calibration.json, compare.json,
	// resumes.json) and a sharded model's safetensors index.
	Record int64 = 64 << 20
	// Tokenizer: tokenizer.json (Qwen3's is 11 MB) and tokenizer_config.json.
	Tokenizer int64 = 64 << 20
	// Log: metrics.jsonl and samples.jsonl.
	Log int64 = 1 << 30
)

// Stdin is the path that names standard input.
const Stdin = "-"

// ReadFile reads path whole, or standard input when path is Stdin: a
// regular file of at most limit bytes. A missing file's error satisfies
// errors.Is(err, fs.ErrNotExist).
func ReadFile(path string, limit int64) ([]byte, error) {
	if path == Stdin {
		return readAtMost(os.Stdin, "standard input", limit)
	}
	f, size, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if size > limit {
		return nil, tooLarge(path, size, limit)
	}
	return readAtMost(f, path, limit)
}

// Open opens path for reading if it is a regular file (it never blocks on
// a FIFO) and returns its size.
func Open(path string) (*os.File, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !st.Mode().IsRegular() {
		f.Close()
		return nil, 0, fmt.Errorf("%s is %s, not a regular file", path, kind(st.Mode()))
	}
	if err := clearNonblock(f); err != nil {
		f.Close()
		return nil, 0, err
	}
	return f, st.Size(), nil
}

// OpenLimited is Open with a size limit.
func OpenLimited(path string, limit int64) (*os.File, error) {
	f, size, err := Open(path)
	if err != nil {
		return nil, err
	}
	if size > limit {
		f.Close()
		return nil, tooLarge(path, size, limit)
	}
	return f, nil
}

// readAtMost reads r to its end, failing past limit bytes (a file that
// grows while it is read, or standard input).
func readAtMost(r io.Reader, name string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s holds more than %s, the limit for it", name, human(limit))
	}
	return data, nil
}

func tooLarge(path string, size, limit int64) error {
	return fmt.Errorf("%s is %s, more than %s, the limit for it", path, human(size), human(limit))
}

// kind names a file mode that is not a regular file's.
func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "not a plain file (" + m.Type().String() + ")"
}

// human writes a byte count in the largest binary unit that fits.
func human(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}
