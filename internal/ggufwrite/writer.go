package ggufwrite

import (
	"encoding/binary"
	"fmt"
	"math"

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

// appendValue writes v, preceded by its type when typed.
func appendValue(b []byte, v any, typed bool) []byte {
	le := binary.LittleEndian
	tag := func(t gguf.ValueType) {
		if typed {
			b = le.AppendUint32(b, uint32(t))
		}
	}
	switch x := v.(type) {
	case uint8:
		tag(gguf.TypeUint8)
		return append(b, x)
	case int8:
		tag(gguf.TypeInt8)
		return append(b, byte(x))
	case uint16:
		tag(gguf.TypeUint16)
		return le.AppendUint16(b, x)
	case int16:
		tag(gguf.TypeInt16)
		return le.AppendUint16(b, uint16(x))
	case uint32:
		tag(gguf.TypeUint32)
		return le.AppendUint32(b, x)
	case int32:
		tag(gguf.TypeInt32)
		return le.AppendUint32(b, uint32(x))
	case uint64:
		tag(gguf.TypeUint64)
		return le.AppendUint64(b, x)
	case int64:
		tag(gguf.TypeInt64)
		return le.AppendUint64(b, uint64(x))
	case float32:
		tag(gguf.TypeFloat32)
		return le.AppendUint32(b, math.Float32bits(x))
	case float64:
		tag(gguf.TypeFloat64)
		return le.AppendUint64(b, math.Float64bits(x))
	case bool:
		tag(gguf.TypeBool)
		if x {
			return append(b, 1)
		}
		return append(b, 0)
	case string:
		tag(gguf.TypeString)
		return appendString(b, x)
	case []string:
		return appendArray(b, typed, gguf.TypeString, x)
	case []int32:
		return appendArray(b, typed, gguf.TypeInt32, x)
	case []uint32:
		return appendArray(b, typed, gguf.TypeUint32, x)
	case []float32:
		return appendArray(b, typed, gguf.TypeFloat32, x)
	case []uint8:
		return appendArray(b, typed, gguf.TypeUint8, x)
	}
	panic(fmt.Sprintf("ggufwrite: a value of type %T cannot be written", v))
}

func appendArray[E any](b []byte, typed bool, et gguf.ValueType, xs []E) []byte {
	if typed {
		b = binary.LittleEndian.AppendUint32(b, uint32(gguf.TypeArray))
	}
	b = binary.LittleEndian.AppendUint32(b, uint32(et))
	b = binary.LittleEndian.AppendUint64(b, uint64(len(xs)))
	for _, x := range xs {
		b = appendValue(b, x, false)
	}
	return b
}
