package gguf

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// Magic is the first four bytes of every GGUF file.
const Magic = "GGUF"

// DefaultAlignment is the tensor data alignment when general.alignment is
// not set.
const DefaultAlignment = 32

// maxDims is ggml's GGML_MAX_DIMS.
const maxDims = 4

// File is a parsed GGUF file: metadata and tensor table. Tensor data is
// read on demand from the reader it was parsed from.
type File struct {
	Version uint32
	// Keys are the metadata keys in file order; Metadata maps each to its
	// value (see Value for the Go types).
	Keys     []string
	Metadata map[string]Value
	Tensors  []TensorInfo
	// Alignment is general.alignment (DefaultAlignment when absent);
	// DataOffset is where tensor data starts, a multiple of it.
	Alignment  int64
	DataOffset int64

	r      io.ReaderAt
	size   int64
	byName map[string]int
}

// TensorInfo is one entry of the tensor table.
type TensorInfo struct {
	Name string
	// Dims is ggml's ne: Dims[0] is the innermost (contiguous) axis, so a
	// PyTorch [out, in] matrix has Dims [in, out].
	Dims []int64
	Type Type
	// Offset is the data's position after File.DataOffset.
	Offset int64
}

// Elements is the product of the dims.
func (t TensorInfo) Elements() int64 {
	n := int64(1)
	for _, d := range t.Dims {
		n *= d
	}
	return n
}

// Shape is the dims outermost first, as PyTorch and safetensors write it.
func (t TensorInfo) Shape() []int {
	s := make([]int, len(t.Dims))
	for i, d := range t.Dims {
		s[len(s)-1-i] = int(d)
	}
	return s
}

// Size is the tensor's data size in bytes; ok is false for a type credo
// does not know.
func (t TensorInfo) Size() (n int64, ok bool) {
	block, bytes, ok := t.Type.blockLayout()
	if !ok {
		return 0, false
	}
	return t.Elements() / block * bytes, true
}

// Open parses the GGUF file at path. Close it when done.
func Open(path string) (*File, io.Closer, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("open gguf: %w", err)
	}
	st, err := fh.Stat()
	if err != nil {
		fh.Close()
		return nil, nil, fmt.Errorf("open gguf: %w", err)
	}
	f, err := Parse(fh, st.Size())
	if err != nil {
		fh.Close()
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, fh, nil
}

// Parse reads the header, metadata and tensor table of a GGUF file of
// size bytes (versions 2 and 3, little-endian). A truncated file, a wrong
// magic, a count or length larger than the bytes left, a tensor outside
// the file or misaligned, a duplicate key or tensor name is an error that
// says which.
func Parse(r io.ReaderAt, size int64) (*File, error) {
	d := &decoder{r: bufio.NewReaderSize(io.NewSectionReader(r, 0, size), 1<<16), size: size}
	f := &File{r: r, size: size, Metadata: map[string]Value{}, byName: map[string]int{}}
	if err := f.readHeader(d); err != nil {
		return nil, fmt.Errorf("parse gguf: %w", err)
	}
	return f, nil
}

func (f *File) readHeader(d *decoder) error {
	magic := d.bytes(4)
	if d.err != nil {
		return fmt.Errorf("header: %w", d.err)
	}
	if string(magic) != Magic {
		return fmt.Errorf("not a GGUF file: magic %q, want %q", magic, Magic)
	}
	f.Version = d.u32()
	switch {
	case d.err != nil:
		return fmt.Errorf("header: %w", d.err)
	case f.Version == 1:
		return errors.New("GGUF version 1 is not supported (versions 2 and 3 are)")
	case f.Version != 2 && f.Version != 3:
		return fmt.Errorf("GGUF version %d is not supported (versions 2 and 3 are; a big-endian file reads as a huge version)", f.Version)
	}
	nTensors, nKV := d.u64(), d.u64()
	if d.err != nil {
		return fmt.Errorf("header: %w", d.err)
	}
	// A key/value takes at least 13 bytes, a tensor entry at least 24.
	if err := d.fits(nKV, 13, "metadata key/values"); err != nil {
		return err
	}
	for i := uint64(0); i < nKV; i++ {
		if err := f.readKV(d); err != nil {
			return fmt.Errorf("metadata key/value %d of %d: %w", i, nKV, err)
		}
	}
	if err := f.readAlignment(); err != nil {
		return err
	}
	if err := d.fits(nTensors, 24, "tensors"); err != nil {
		return err
	}
	for i := uint64(0); i < nTensors; i++ {
		t, err := readTensorInfo(d)
		if err != nil {
			return fmt.Errorf("tensor %d of %d: %w", i, nTensors, err)
		}
		if _, dup := f.byName[t.Name]; dup {
			return fmt.Errorf("tensor %d: name %q appears twice", i, t.Name)
		}
		f.byName[t.Name] = len(f.Tensors)
		f.Tensors = append(f.Tensors, t)
	}
	f.DataOffset = (d.pos + f.Alignment - 1) / f.Alignment * f.Alignment
	return f.checkTensors()
}

func (f *File) readKV(d *decoder) error {
	key := d.str()
	vt := ValueType(d.u32())
	if d.err != nil {
		return d.err
	}
	v, err := d.value(vt, 0)
	if err != nil {
		return fmt.Errorf("key %q: %w", key, err)
	}
	if _, dup := f.Metadata[key]; dup {
		return fmt.Errorf("key %q appears twice", key)
	}
	f.Keys = append(f.Keys, key)
	f.Metadata[key] = v
	return nil
}

// readAlignment reads general.alignment: a power of two, as ggml requires.
func (f *File) readAlignment() error {
	f.Alignment = DefaultAlignment
	v, ok := f.Metadata["general.alignment"]
	if !ok {
		return nil
	}
	a, isU32 := v.v.(uint32)
	if !isU32 || a == 0 || a&(a-1) != 0 {
		return fmt.Errorf("general.alignment is %v (%s), want a power of two as uint32", v.v, v.Type)
	}
	f.Alignment = int64(a)
	return nil
}

func readTensorInfo(d *decoder) (TensorInfo, error) {
	var t TensorInfo
	t.Name = d.str()
	n := d.u32()
	if d.err != nil {
		return t, d.err
	}
	if n == 0 || n > maxDims {
		return t, fmt.Errorf("%q has %d dims, want 1 to %d", t.Name, n, maxDims)
	}
	total := int64(1)
	for range n {
		v := d.u64()
		if d.err != nil {
			return t, d.err
		}
		if v > math.MaxInt64 || (v > 0 && total > math.MaxInt64/int64(v)) {
			return t, fmt.Errorf("%q: dims overflow", t.Name)
		}
		total *= int64(v)
		t.Dims = append(t.Dims, int64(v))
	}
	t.Type = Type(d.u32())
	off := d.u64()
	if d.err != nil {
		return t, d.err
	}
	if off > math.MaxInt64 {
		return t, fmt.Errorf("%q: offset %d is past any file", t.Name, off)
	}
	t.Offset = int64(off)
	return t, nil
}

// checkTensors checks every tensor of a known type against the file: its
// row a whole number of blocks, its data aligned and inside the file.
func (f *File) checkTensors() error {
	data := f.size - f.DataOffset
	for _, t := range f.Tensors {
		if t.Offset%f.Alignment != 0 {
			return fmt.Errorf("tensor %q: offset %d is not a multiple of the alignment %d", t.Name, t.Offset, f.Alignment)
		}
		block, size, ok := t.Type.blockLayout()
		if !ok {
			continue // Dequantize names the type when asked
		}
		if t.Dims[0]%block != 0 {
			return fmt.Errorf("tensor %q: row of %d elements is not a whole number of %s blocks (%d)", t.Name, t.Dims[0], t.Type, block)
		}
		// Blocks are compared before bytes are counted, which could overflow.
		if blocks := t.Elements() / block; t.Offset > data || blocks > (data-t.Offset)/size {
			return fmt.Errorf("tensor %q: %d %s blocks of %d bytes at offset %d run past the end of the file (%d bytes of data): truncated?",
				t.Name, blocks, t.Type, size, t.Offset, max(data, 0))
		}
	}
	return nil
}

// Tensor looks a tensor up by name.
func (f *File) Tensor(name string) (TensorInfo, bool) {
	i, ok := f.byName[name]
	if !ok {
		return TensorInfo{}, false
	}
	return f.Tensors[i], true
}

// Float32 reads a tensor's data and dequantizes it, in ggml's order
// (Dims[0] fastest, which is PyTorch's row-major order of Shape).
func (f *File) Float32(t TensorInfo) ([]float32, error) {
	n, ok := t.Size()
	if _, can := dequantizers[t.Type]; !ok || !can {
		return nil, fmt.Errorf("tensor %q: type %s cannot be dequantized (credo reads %s)", t.Name, t.Type, Supported)
	}
	buf := make([]byte, n)
	if _, err := f.r.ReadAt(buf, f.DataOffset+t.Offset); err != nil {
		return nil, fmt.Errorf("tensor %q: read: %w", t.Name, err)
	}
	v, err := Dequantize(t.Type, buf, t.Elements())
	if err != nil {
		return nil, fmt.Errorf("tensor %q: %w", t.Name, err)
	}
	return v, nil
}

// decoder reads little-endian values, keeping the first error and the
// position, so callers check once per group of reads.
type decoder struct {
	r    *bufio.Reader
	pos  int64
	size int64
	err  error
	buf  [8]byte
}

// fits checks that n items of at least minSize bytes each can be in the
// bytes left.
func (d *decoder) fits(n, minSize uint64, what string) error {
	left := uint64(max(d.size-d.pos, 0))
	if n > left/minSize {
		return fmt.Errorf("%d %s cannot fit in the %d bytes left: corrupt or truncated", n, what, left)
	}
	return nil
}

func (d *decoder) bytes(n int64) []byte {
	if d.err != nil {
		return nil
	}
	if n > d.size-d.pos {
		d.err = fmt.Errorf("unexpected end of file at byte %d (wanted %d more bytes of %d)", d.pos, n, d.size)
		return nil
	}
	var b []byte
	if n <= int64(len(d.buf)) {
		b = d.buf[:n]
	} else {
		b = make([]byte, n)
	}
	if _, err := io.ReadFull(d.r, b); err != nil {
		d.err = fmt.Errorf("read at byte %d: %w", d.pos, err)
		return nil
	}
	d.pos += n
	return b
}

func (d *decoder) u8() uint8 {
	if b := d.bytes(1); b != nil {
		return b[0]
	}
	return 0
}

func (d *decoder) u16() uint16 { return fixed(d, 2, binary.LittleEndian.Uint16) }
func (d *decoder) u32() uint32 { return fixed(d, 4, binary.LittleEndian.Uint32) }
func (d *decoder) u64() uint64 { return fixed(d, 8, binary.LittleEndian.Uint64) }

// fixed reads n bytes and decodes them with get (0 after an error).
func fixed[T any](d *decoder, n int64, get func([]byte) T) T {
	var zero T
	if b := d.bytes(n); b != nil {
		return get(b)
	}
	return zero
}

// str reads a gguf_string: a u64 length and that many bytes.
func (d *decoder) str() string {
	n := d.u64()
	if d.err != nil {
		return ""
	}
	if n > uint64(max(d.size-d.pos, 0)) {
		d.err = fmt.Errorf("string of %d bytes at byte %d runs past the end of the file (%d bytes)", n, d.pos, d.size)
		return ""
	}
	return string(d.bytes(int64(n))) // a copy: d.buf is reused
}
