package gguftest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"reflect"
	"testing"

	"github.com/credo-rl/credo/gguf"
)

// Writer collects metadata and tensors and lays them out as a GGUF
// version 3 file.
type Writer struct {
	// Alignment of tensor data; 0 means gguf.DefaultAlignment. A value
	// other than the default is also written as general.alignment.
	Alignment int
	kvs       []byte
	nKV       int
	tensors   []tensor
}

type tensor struct {
	name string
	dims []int64
	typ  gguf.Type
	data []byte
}

// Add adds a metadata key with a value of one of the Go types a GGUF value
// can be: uint8 … uint64, int8 … int64, float32, float64, bool, string, or
// a slice of one of them. Any other type panics (a test's mistake).
func (w *Writer) Add(key string, v any) {
	w.kvs = appendString(w.kvs, key)
	w.kvs = appendValue(w.kvs, v, true)
	w.nKV++
}

// AddTensor adds a tensor with ggml dims (innermost first) and its raw data.
func (w *Writer) AddTensor(name string, t gguf.Type, dims []int64, data []byte) {
	w.tensors = append(w.tensors, tensor{name, dims, t, data})
}

// Bytes is the file.
func (w *Writer) Bytes() []byte {
	align := int64(w.Alignment)
	kvs, nKV := w.kvs, w.nKV
	if align == 0 {
		align = gguf.DefaultAlignment
	} else if align != gguf.DefaultAlignment {
		kvs = appendValue(appendString(append([]byte(nil), kvs...), "general.alignment"), uint32(align), true)
		nKV++
	}
	out := []byte(gguf.Magic)
	out = binary.LittleEndian.AppendUint32(out, 3)
	out = binary.LittleEndian.AppendUint64(out, uint64(len(w.tensors)))
	out = binary.LittleEndian.AppendUint64(out, uint64(nKV))
	out = append(out, kvs...)
	var off int64
	offsets := make([]int64, len(w.tensors))
	for i, t := range w.tensors {
		out = appendString(out, t.name)
		out = binary.LittleEndian.AppendUint32(out, uint32(len(t.dims)))
		for _, d := range t.dims {
			out = binary.LittleEndian.AppendUint64(out, uint64(d))
		}
		out = binary.LittleEndian.AppendUint32(out, uint32(t.typ))
		offsets[i] = off
		out = binary.LittleEndian.AppendUint64(out, uint64(off))
		off = pad(off+int64(len(t.data)), align)
	}
	out = append(out, make([]byte, pad(int64(len(out)), align)-int64(len(out)))...)
	base := int64(len(out))
	for i, t := range w.tensors {
		out = append(out, make([]byte, base+offsets[i]-int64(len(out)))...)
		out = append(out, t.data...)
	}
	return out
}

func pad(n, align int64) int64 { return (n + align - 1) / align * align }

func appendString(b []byte, s string) []byte {
	return append(binary.LittleEndian.AppendUint64(b, uint64(len(s))), s...)
}

// valueTypes maps the Go type of a scalar to its GGUF type.
var valueTypes = map[reflect.Type]gguf.ValueType{
	reflect.TypeFor[uint8](): gguf.TypeUint8, reflect.TypeFor[int8](): gguf.TypeInt8, reflect.TypeFor[uint16](): gguf.TypeUint16,
	reflect.TypeFor[int16](): gguf.TypeInt16, reflect.TypeFor[uint32](): gguf.TypeUint32, reflect.TypeFor[int32](): gguf.TypeInt32,
	reflect.TypeFor[uint64](): gguf.TypeUint64, reflect.TypeFor[int64](): gguf.TypeInt64, reflect.TypeFor[float32](): gguf.TypeFloat32,
	reflect.TypeFor[float64](): gguf.TypeFloat64, reflect.TypeFor[bool](): gguf.TypeBool, reflect.TypeFor[string](): gguf.TypeString,
}

// appendValue writes v, preceded by its type when typed: a scalar in
// little-endian (a string as its length and bytes), a slice as an array.
func appendValue(b []byte, v any, typed bool) []byte {
	r := reflect.ValueOf(v)
	if r.Kind() == reflect.Slice {
		et, ok := valueTypes[r.Type().Elem()]
		if !ok {
			panic(fmt.Sprintf("gguftest: a value of type %T cannot be written", v))
		}
		if typed {
			b = binary.LittleEndian.AppendUint32(b, uint32(gguf.TypeArray))
		}
		b = binary.LittleEndian.AppendUint32(b, uint32(et))
		b = binary.LittleEndian.AppendUint64(b, uint64(r.Len()))
		for i := range r.Len() {
			b = appendValue(b, r.Index(i).Interface(), false)
		}
		return b
	}
	t, ok := valueTypes[r.Type()]
	if !ok {
		panic(fmt.Sprintf("gguftest: a value of type %T cannot be written", v))
	}
	if typed {
		b = binary.LittleEndian.AppendUint32(b, uint32(t))
	}
	if s, ok := v.(string); ok {
		return appendString(b, s)
	}
	b, err := binary.Append(b, binary.LittleEndian, v)
	if err != nil {
		panic(err)
	}
	return b
}

// Parse parses data, failing the test on an error.
func Parse(t testing.TB, data []byte) *gguf.File {
	t.Helper()
	f, err := gguf.Parse(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatalf("parse gguf: %v", err)
	}
	return f
}
