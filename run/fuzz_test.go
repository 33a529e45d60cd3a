package run

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzOpenMetrics: any metrics file either opens with exactly the steps
// before the checkpoint or fails with an error, and is never changed.
func FuzzOpenMetrics(f *testing.F) {
	f.Add([]byte("{\"step\":1}\n{\"step\":2,\"a\":null}\n"), uint8(1))
	f.Add([]byte("{\"step\":1}\n\n{\"step\":3}"), uint8(2))
	f.Add([]byte("{\"step\":1.0}\n{\"step\":2e0}\n[]\nnull"), uint8(0))
	f.Add([]byte(`{"step":1048575}`), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, steps uint8) {
		path := filepath.Join(t.TempDir(), MetricsFile)
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		l, err := OpenMetrics(path, int(steps))
		if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
			t.Fatal("OpenMetrics changed the file")
		}
		if err == nil && l.Len() != int(steps) {
			t.Fatalf("opened with %d lines for a checkpoint at step %d", l.Len(), steps)
		}
	})
}
