package model

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sort"

	"github.com/credo-rl/credo/internal/atomicfile"
)

// The safetensors format: an 8-byte little-endian header length, a JSON
// header mapping tensor names to {dtype, shape, data_offsets}, then the raw
// little-endian data. https://github.com/huggingface/safetensors

// maxHeader bounds the JSON header a reader will allocate: real checkpoints
// have headers of kilobytes to a few megabytes.
const maxHeader = 100 << 20

type stEntry struct {
	DType   string   `json:"dtype"`
	Shape   []int    `json:"shape"`
	Offsets [2]int64 `json:"data_offsets"`
}

// Tensor is a named float32 tensor read from or written to safetensors.
type Tensor struct {
	Shape []int
	Data  []float32
}

// ReadSafetensors reads every tensor of one file, converting F32, F16 and
// BF16 to float32. A corrupt header (too long, not JSON, offsets outside the
// data or overlapping, a shape that does not match its byte count) is an
// error that says what is wrong.
func ReadSafetensors(path string) (map[string]Tensor, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read safetensors: %w", err)
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("read safetensors %s: %w", path, err)
	}
	out, err := readSafetensors(f, st.Size())
	if err != nil {
		return nil, fmt.Errorf("read safetensors %s: %w", path, err)
	}
	return out, nil
}

func readSafetensors(r io.ReaderAt, size int64) (map[string]Tensor, error) {
	var lenBuf [8]byte
	if _, err := r.ReadAt(lenBuf[:], 0); err != nil {
		return nil, fmt.Errorf("corrupt header: file too short (%d bytes)", size)
	}
	n := binary.LittleEndian.Uint64(lenBuf[:])
	if n > maxHeader || int64(n) > size-8 {
		return nil, fmt.Errorf("corrupt header: header length %d does not fit in a %d-byte file", n, size)
	}
	hdr := make([]byte, n)
	if _, err := r.ReadAt(hdr, 8); err != nil {
		return nil, fmt.Errorf("corrupt header: %w", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(hdr, &raw); err != nil {
		return nil, fmt.Errorf("corrupt header: %w", err)
	}
	dataStart := 8 + int64(n)
	dataLen := size - dataStart
	type span struct {
		name       string
		start, end int64
	}
	var spans []span
	out := map[string]Tensor{}
	for name, msg := range raw {
		if name == "__metadata__" {
			continue
		}
		var e stEntry
		if err := json.Unmarshal(msg, &e); err != nil {
			return nil, fmt.Errorf("corrupt header entry %q: %w", name, err)
		}
		width, ok := map[string]int64{"F32": 4, "F16": 2, "BF16": 2}[e.DType]
		if !ok {
			return nil, fmt.Errorf("tensor %q: dtype %q is not supported (want F32, F16 or BF16)", name, e.DType)
		}
		count := int64(1)
		for _, d := range e.Shape {
			if d < 0 || (d > 0 && count > math.MaxInt32/int64(d)) {
				return nil, fmt.Errorf("tensor %q: bad shape %v", name, e.Shape)
			}
			count *= int64(d)
		}
		start, end := e.Offsets[0], e.Offsets[1]
		if start < 0 || end < start || end > dataLen {
			return nil, fmt.Errorf("tensor %q: data offsets [%d, %d) outside the %d data bytes", name, start, end, dataLen)
		}
		if end-start != count*width {
			return nil, fmt.Errorf("tensor %q: %d bytes for shape %v of %s", name, end-start, e.Shape, e.DType)
		}
		spans = append(spans, span{name, start, end})
		buf := make([]byte, end-start)
		if _, err := r.ReadAt(buf, dataStart+start); err != nil {
			return nil, fmt.Errorf("tensor %q: %w", name, err)
		}
		out[name] = Tensor{Shape: append([]int(nil), e.Shape...), Data: decode(buf, e.DType, int(count))}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	for i := 1; i < len(spans); i++ {
		if spans[i].start < spans[i-1].end {
			return nil, fmt.Errorf("corrupt header: tensors %q and %q overlap", spans[i-1].name, spans[i].name)
		}
	}
	return out, nil
}

func decode(buf []byte, dtype string, n int) []float32 {
	out := make([]float32, n)
	switch dtype {
	case "F32":
		for i := range out {
			out[i] = math.Float32frombits(binary.LittleEndian.Uint32(buf[4*i:]))
		}
	case "BF16":
		for i := range out {
			out[i] = math.Float32frombits(uint32(binary.LittleEndian.Uint16(buf[2*i:])) << 16)
		}
	case "F16":
		for i := range out {
			out[i] = halfToFloat(binary.LittleEndian.Uint16(buf[2*i:]))
		}
	}
	return out
}

// halfToFloat converts an IEEE 754 binary16 value.
func halfToFloat(h uint16) float32 {
	sign := uint32(h>>15) << 31
	exp := uint32(h>>10) & 0x1f
	frac := uint32(h) & 0x3ff
	switch {
	case exp == 0 && frac == 0:
		return math.Float32frombits(sign)
	case exp == 0: // subnormal: value = frac · 2^−24
		v := float32(frac) / (1 << 24)
		if sign != 0 {
			v = -v
		}
		return v
	case exp == 0x1f:
		return math.Float32frombits(sign | 0xff<<23 | frac<<13)
	}
	return math.Float32frombits(sign | (exp+127-15)<<23 | frac<<13)
}

// WriteSafetensors writes float32 tensors in name order, atomically.
func WriteSafetensors(path string, ts map[string]Tensor) error {
	names := make([]string, 0, len(ts))
	for n := range ts {
		names = append(names, n)
	}
	sort.Strings(names)
	header := map[string]any{"__metadata__": map[string]string{"format": "pt"}}
	var off int64
	for _, n := range names {
		size := int64(4 * len(ts[n].Data))
		header[n] = stEntry{DType: "F32", Shape: ts[n].Shape, Offsets: [2]int64{off, off + size}}
		off += size
	}
	hdr, err := json.Marshal(header)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	for len(hdr)%8 != 0 { // keep the data 8-byte aligned, as the reference writer does
		hdr = append(hdr, ' ')
	}
	buf := make([]byte, 8, 8+len(hdr)+int(off))
	binary.LittleEndian.PutUint64(buf, uint64(len(hdr)))
	buf = append(buf, hdr...)
	for _, n := range names {
		for _, v := range ts[n].Data {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
		}
	}
	return atomicfile.Write(path, buf)
}

// readCheckpointTensors reads model.safetensors, or the shards listed in
// model.safetensors.index.json.
func readCheckpointTensors(dir string) (map[string]Tensor, error) {
	single := filepath.Join(dir, "model.safetensors")
	if _, err := os.Stat(single); err == nil {
		return ReadSafetensors(single)
	}
	indexPath := filepath.Join(dir, "model.safetensors.index.json")
	data, err := os.ReadFile(indexPath)
	if err != nil {
		return nil, fmt.Errorf("no model.safetensors or model.safetensors.index.json in %s", dir)
	}
	var index struct {
		WeightMap map[string]string `json:"weight_map"`
	}
	if err := json.Unmarshal(data, &index); err != nil {
		return nil, fmt.Errorf("read %s: %w", indexPath, err)
	}
	files := map[string]bool{}
	for _, f := range index.WeightMap {
		if filepath.Base(f) != f {
			return nil, fmt.Errorf("read %s: shard name %q is not a plain file name", indexPath, f)
		}
		files[f] = true
	}
	out := map[string]Tensor{}
	for f := range files {
		ts, err := ReadSafetensors(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		for n, t := range ts {
			out[n] = t
		}
	}
	return out, nil
}
