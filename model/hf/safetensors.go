package hf

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"

	"github.com/credo-rl/credo/internal/atomicfile"
	"github.com/credo-rl/credo/internal/boundedread"
	"github.com/credo-rl/credo/model"
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

// dtypeWidth is the byte width of every safetensors dtype, so a header
// can be checked even for tensors credo never decodes (an I64 buffer).
var dtypeWidth = map[string]int64{
	"F64": 8, "F32": 4, "F16": 2, "BF16": 2, "F8_E4M3": 1, "F8_E5M2": 1,
	"I64": 8, "I32": 4, "I16": 2, "I8": 1, "U64": 8, "U32": 4, "U16": 2, "U8": 1, "BOOL": 1,
}

// Tensor is a named tensor read from or written to safetensors, held as
// float32 whatever its storage dtype.
type Tensor struct {
	Shape []int
	Data  []float32
	// DType is the storage dtype: "F32" (or ""), "BF16" or "F16". Reading
	// sets it from the file; writing rounds Data to it.
	DType string
}

// ReadSafetensors reads every tensor of one file, converting F32, F16 and
// BF16 to float32. A corrupt header (too long, not JSON, offsets outside the
// data or overlapping, a shape that does not match its byte count) is an
// error that says what is wrong.
func ReadSafetensors(path string) (map[string]Tensor, error) {
	f, size, err := boundedread.Open(path) // a regular file: its header is bounded by maxHeader and its size
	if err != nil {
		return nil, fmt.Errorf("read safetensors: %w", err)
	}
	defer f.Close()
	out, err := readSafetensors(f, size)
	if err != nil {
		return nil, fmt.Errorf("read safetensors %s: %w", path, err)
	}
	return out, nil
}

func readSafetensors(r io.ReaderAt, size int64) (map[string]Tensor, error) {
	f, err := parseSafetensors(r, size)
	if err != nil {
		return nil, err
	}
	out := map[string]Tensor{}
	for _, name := range f.names() {
		if out[name], err = f.read(name); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// stFile is a safetensors file whose header has been read and checked;
// tensors are decoded on demand.
type stFile struct {
	r         io.ReaderAt
	dataStart int64
	entries   map[string]stEntry
}

func parseSafetensors(r io.ReaderAt, size int64) (*stFile, error) {
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
	f := &stFile{r: r, dataStart: 8 + int64(n), entries: map[string]stEntry{}}
	dataLen := size - f.dataStart
	type span struct {
		name       string
		start, end int64
	}
	var spans []span
	for name, msg := range raw {
		if name == "__metadata__" {
			continue
		}
		var e stEntry
		if err := json.Unmarshal(msg, &e); err != nil {
			return nil, fmt.Errorf("corrupt header entry %q: %w", name, err)
		}
		width, ok := dtypeWidth[e.DType]
		if !ok {
			return nil, fmt.Errorf("tensor %q: unknown dtype %q", name, e.DType)
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
		f.entries[name] = e
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	for i := 1; i < len(spans); i++ {
		if spans[i].start < spans[i-1].end {
			return nil, fmt.Errorf("corrupt header: tensors %q and %q overlap", spans[i-1].name, spans[i].name)
		}
	}
	return f, nil
}

// names lists the file's tensors in name order.
func (f *stFile) names() []string {
	names := make([]string, 0, len(f.entries))
	for n := range f.entries {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// read decodes one tensor to float32.
func (f *stFile) read(name string) (Tensor, error) {
	e := f.entries[name]
	if _, ok := model.TorchDType(e.DType); !ok {
		return Tensor{}, fmt.Errorf("tensor %q: dtype %q is not supported (want F32, F16 or BF16)", name, e.DType)
	}
	buf := make([]byte, e.Offsets[1]-e.Offsets[0])
	if _, err := f.r.ReadAt(buf, f.dataStart+e.Offsets[0]); err != nil {
		return Tensor{}, fmt.Errorf("tensor %q: %w", name, err)
	}
	n := len(buf) / int(dtypeWidth[e.DType])
	return Tensor{Shape: append([]int{}, e.Shape...), Data: decode(buf, e.DType, n), DType: e.DType}, nil
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

// WriteSafetensors writes tensors in name order, atomically, each in its
// DType (F32 when empty): BF16 and F16 round to nearest even.
func WriteSafetensors(path string, ts map[string]Tensor) error {
	names := make([]string, 0, len(ts))
	for n := range ts {
		names = append(names, n)
	}
	sort.Strings(names)
	header := map[string]any{"__metadata__": map[string]string{"format": "pt"}}
	var off int64
	for _, n := range names {
		dt := ts[n].DType
		if dt == "" {
			dt = "F32"
		}
		if _, ok := model.TorchDType(dt); !ok {
			return fmt.Errorf("write %s: tensor %s: dtype %q is not supported (want F32, BF16 or F16)", path, n, dt)
		}
		size := dtypeWidth[dt] * int64(len(ts[n].Data))
		header[n] = stEntry{DType: dt, Shape: ts[n].Shape, Offsets: [2]int64{off, off + size}}
		off += size
	}
	hdr, err := json.Marshal(header)
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	for len(hdr)%8 != 0 { // keep the data 8-byte aligned, as the reference writer does
		hdr = append(hdr, ' ')
	}
	return atomicfile.WriteWith(path, func(w io.Writer) error {
		var n8 [8]byte
		binary.LittleEndian.PutUint64(n8[:], uint64(len(hdr)))
		if _, err := w.Write(append(n8[:], hdr...)); err != nil {
			return err
		}
		// Each tensor is encoded a block at a time: a checkpoint of a
		// 135M model (weights, then 1 GB of moments) written through one
		// buffer doubled the trainer's memory while it saved.
		buf := make([]byte, 0, 4<<16)
		for _, n := range names {
			data := ts[n].Data
			for lo := 0; lo < len(data); lo += 1 << 16 {
				buf = encodeValues(buf[:0], ts[n].DType, data[lo:min(lo+1<<16, len(data))])
				if _, err := w.Write(buf); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

// encodeValues appends vs to buf in dtype's little-endian encoding (F32
// when dtype is empty).
func encodeValues(buf []byte, dtype string, vs []float32) []byte {
	switch dtype {
	case "BF16":
		for _, v := range vs {
			buf = binary.LittleEndian.AppendUint16(buf, floatToBF16(v))
		}
	case "F16":
		for _, v := range vs {
			buf = binary.LittleEndian.AppendUint16(buf, floatToHalf(v))
		}
	default:
		for _, v := range vs {
			buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(v))
		}
	}
	return buf
}
