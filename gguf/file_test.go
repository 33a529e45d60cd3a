package gguf_test

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/credo-rl/credo/gguf"
	"github.com/credo-rl/credo/gguf/gguftest"
)

// TestPythonFixture reads the file the gguf package wrote
// (scripts/python/gguf_fixture.py): every value type, a 64-byte alignment,
// and each type's tensor dequantized as gguf.quants.dequantize does.
func TestPythonFixture(t *testing.T) {
	f, close, err := gguf.Open("testdata/quants.gguf")
	if err != nil {
		t.Fatal(err)
	}
	defer close.Close()
	if f.Version != 3 || f.Alignment != 64 || f.DataOffset%64 != 0 {
		t.Errorf("version %d, alignment %d, data offset %d; want 3, 64, a multiple of 64", f.Version, f.Alignment, f.DataOffset)
	}
	want := map[string]any{
		"test.u8": uint8(200), "test.i8": int8(-100), "test.u16": uint16(60000), "test.i16": int16(-30000),
		"test.u32": uint32(4000000000), "test.i32": int32(-2000000000), "test.f32": float32(0.1),
		"test.bool": true, "test.string": "héllo\nwörld", "test.u64": uint64(1<<63 + 5), "test.i64": int64(-(1 << 62)),
		"test.f64": 1e-300, "general.architecture": "test",
	}
	for k, v := range want {
		if got := f.Metadata[k].Any(); got != v {
			t.Errorf("%s = %v (%T), want %v (%T)", k, got, got, v, v)
		}
	}
	if s, err := f.Strings("test.strings"); err != nil || !slices.Equal(s, []string{"a", "", "ċ"}) {
		t.Errorf("test.strings = %q, %v", s, err)
	}
	if n, err := f.Ints("test.ints"); err != nil || !slices.Equal(n, []int64{1, -2, 3}) {
		t.Errorf("test.ints = %v, %v", n, err)
	}
	for _, typ := range []string{"F16", "BF16", "Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1"} {
		q, ok1 := f.Tensor("q." + typ)
		w, ok2 := f.Tensor("want." + typ)
		if !ok1 || !ok2 {
			t.Fatalf("%s: tensors missing", typ)
		}
		if q.Type.String() != typ || !slices.Equal(q.Shape(), []int{2, 64}) {
			t.Errorf("q.%s: type %s shape %v", typ, q.Type, q.Shape())
		}
		got, err := f.Float32(q)
		if err != nil {
			t.Fatal(err)
		}
		ref, err := f.Float32(w)
		if err != nil {
			t.Fatal(err)
		}
		diff := maxDiff(got, ref)
		t.Logf("%s: max |credo − gguf.quants.dequantize| = %g", typ, diff)
		if diff != 0 {
			t.Errorf("%s: dequantized values differ from gguf's by up to %g", typ, diff)
		}
	}
}

func maxDiff(a, b []float32) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	d := 0.0
	for i := range a {
		d = max(d, math.Abs(float64(a[i])-float64(b[i])))
	}
	return d
}

// TestQuantizeRoundTrip: the test writer's quantizers and the reader's
// dequantizers agree within each type's step.
func TestQuantizeRoundTrip(t *testing.T) {
	x := make([]float32, 96)
	for i := range x {
		x[i] = float32(math.Sin(float64(i)*0.7)) * 2
	}
	for _, tc := range []struct {
		typ gguf.Type
		tol float64
	}{{gguf.F32, 0}, {gguf.F16, 1e-3}, {gguf.BF16, 1e-2}, {gguf.Q8_0, 2.0 / 127}, {gguf.Q4_0, 2.0 / 8}, {gguf.Q4_1, 4.0 / 15}} {
		got, err := gguf.Dequantize(tc.typ, gguftest.Quantize(tc.typ, x), int64(len(x)))
		if err != nil {
			t.Fatal(err)
		}
		if d := maxDiff(got, x); d > tc.tol {
			t.Errorf("%s: max diff %g > %g", tc.typ, d, tc.tol)
		}
	}
}

func TestHalf(t *testing.T) {
	for _, v := range []float32{0, 1, -2, 0.5, 65504, 6.1035156e-05, 5.9604645e-08, -3.0517578e-05, 0.333251953125} {
		got, err := gguf.Dequantize(gguf.F16, binary.LittleEndian.AppendUint16(nil, gguftest.Half(v)), 1)
		if err != nil || got[0] != v {
			t.Errorf("F16 round trip of %g = %v, %v", v, got, err)
		}
	}
	if h := gguftest.Half(1e6); h != 0x7c00 {
		t.Errorf("Half(1e6) = %#x, want +Inf 0x7c00", h)
	}
}

// TestWriterFile parses the test writer's file: metadata, tensor table,
// alignment, data.
func TestWriterFile(t *testing.T) {
	var w gguftest.Writer
	w.Alignment = 128
	w.Add("a.name", "x")
	w.Add("a.count", uint32(3))
	w.Add("a.eps", float32(1e-5))
	w.Add("a.list", []string{"p", "q"})
	x := []float32{1, 2, 3, 4, 5, 6}
	w.AddTensor("m", gguf.F32, []int64{3, 2}, gguftest.Quantize(gguf.F32, x))
	w.AddTensor("v", gguf.F16, []int64{6}, gguftest.Quantize(gguf.F16, x))
	f := gguftest.Parse(t, w.Bytes())
	if f.Alignment != 128 || len(f.Tensors) != 2 || f.Tensors[1].Offset != 128 {
		t.Fatalf("alignment %d, %d tensors, second at %d", f.Alignment, len(f.Tensors), f.Tensors[1].Offset)
	}
	if n, err := f.Int("a.count"); err != nil || n != 3 {
		t.Errorf("a.count = %d, %v", n, err)
	}
	if e, err := f.Float("a.eps"); err != nil || float32(e) != 1e-5 {
		t.Errorf("a.eps = %g, %v", e, err)
	}
	if _, err := f.Int("a.name"); err == nil || !strings.Contains(err.Error(), "want an integer") {
		t.Errorf("Int of a string: %v", err)
	}
	if _, err := f.String("missing"); err == nil || !strings.Contains(err.Error(), "missing") {
		t.Errorf("String of a missing key: %v", err)
	}
	m, _ := f.Tensor("m")
	if got, err := f.Float32(m); err != nil || !slices.Equal(got, x) || !slices.Equal(m.Shape(), []int{2, 3}) {
		t.Errorf("m = %v (shape %v), %v", got, m.Shape(), err)
	}
}

func TestUnsupportedType(t *testing.T) {
	var w gguftest.Writer
	w.AddTensor("k", gguf.Q4_K, []int64{256}, make([]byte, 144))
	w.AddTensor("iq", gguf.Type(16), []int64{256}, make([]byte, 66)) // IQ2_XXS: size unknown to credo
	f := gguftest.Parse(t, w.Bytes())
	for _, ti := range f.Tensors {
		_, err := f.Float32(ti)
		if err == nil || !strings.Contains(err.Error(), "cannot be dequantized") || !strings.Contains(err.Error(), "Q4_1") {
			t.Errorf("%s: err = %v, want one naming the type and what is supported", ti.Name, err)
		}
	}
}

// TestMalformed: each corruption is an error that says what is wrong.
func TestMalformed(t *testing.T) {
	var w gguftest.Writer
	w.Add("general.architecture", "llama")
	w.Add("tokens", []string{"a", "b"})
	w.AddTensor("t", gguf.F32, []int64{4}, make([]byte, 16))
	good := w.Bytes()
	hdr := func(version uint32, nTensors, nKV uint64) []byte {
		b := []byte(gguf.Magic)
		b = binary.LittleEndian.AppendUint32(b, version)
		b = binary.LittleEndian.AppendUint64(b, nTensors)
		return binary.LittleEndian.AppendUint64(b, nKV)
	}
	kv := func(key string, typ uint32, rest ...byte) []byte {
		b := binary.LittleEndian.AppendUint64(nil, uint64(len(key)))
		b = append(b, key...)
		return append(binary.LittleEndian.AppendUint32(b, typ), rest...)
	}
	tensorInfo := func(nDims uint32, dims []uint64, typ uint32, off uint64) []byte {
		b := binary.LittleEndian.AppendUint64(nil, 1)
		b = append(b, 'x')
		b = binary.LittleEndian.AppendUint32(b, nDims)
		for _, d := range dims {
			b = binary.LittleEndian.AppendUint64(b, d)
		}
		b = binary.LittleEndian.AppendUint32(b, typ)
		return binary.LittleEndian.AppendUint64(b, off)
	}
	u64 := func(v uint64) []byte { return binary.LittleEndian.AppendUint64(nil, v) }
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	for _, tc := range []struct {
		name, want string
		data       []byte
	}{
		{"empty", "unexpected end of file", nil},
		{"wrong magic", "not a GGUF file", append([]byte("GGML"), good[4:]...)},
		{"version 1", "version 1 is not supported", hdr(1, 0, 0)},
		{"big-endian", "big-endian", hdr(3<<24, 0, 0)},
		{"absurd kv count", "cannot fit", hdr(3, 0, 1<<60)},
		{"absurd tensor count", "cannot fit", hdr(3, 1<<62, 0)},
		{"absurd string", "runs past the end", cat(hdr(3, 0, 1), u64(1<<50), make([]byte, 8))},
		{"absurd array", "cannot fit", cat(hdr(3, 0, 1), kv("a", 9, 8, 0, 0, 0), u64(1<<40))},
		{"unknown value type", "unknown value type", cat(hdr(3, 0, 1), kv("a", 77))},
		{"bad bool", "bool byte", cat(hdr(3, 0, 1), kv("a", 7, 2))},
		{"duplicate key", "appears twice", cat(hdr(3, 0, 2), kv("a", 0, 1), kv("a", 0, 2))},
		{"bad alignment", "general.alignment", cat(hdr(3, 0, 1), kv("general.alignment", 4, 3, 0, 0, 0))},
		{"deep arrays", "nested", cat(hdr(3, 0, 1), kv("a", 9, 9, 0, 0, 0), u64(1), []byte{9, 0, 0, 0}, u64(1), []byte{9, 0, 0, 0}, u64(1), []byte{9, 0, 0, 0}, u64(1), []byte{0, 0, 0, 0}, u64(1), []byte{1})},
		{"five dims", "5 dims", cat(hdr(3, 1, 0), tensorInfo(5, nil, 0, 0), make([]byte, 64))},
		{"dims overflow", "overflow", cat(hdr(3, 1, 0), tensorInfo(2, []uint64{1 << 40, 1 << 40}, 0, 0))},
		{"misaligned", "not a multiple of the alignment", cat(hdr(3, 1, 0), tensorInfo(1, []uint64{4}, 0, 4), make([]byte, 64))},
		{"past the end", "run past the end", cat(hdr(3, 1, 0), tensorInfo(1, []uint64{1 << 30}, 0, 0), make([]byte, 64))},
		{"partial block", "whole number", cat(hdr(3, 1, 0), tensorInfo(1, []uint64{33}, uint32(gguf.Q8_0), 0), make([]byte, 128))},
		{"truncated data", "truncated", good[:len(good)-4]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := gguf.Parse(bytes.NewReader(tc.data), int64(len(tc.data)))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
	// Every strict prefix of a valid file is an error, never a panic.
	for n := range len(good) {
		if _, err := gguf.Parse(bytes.NewReader(good[:n]), int64(n)); err == nil {
			t.Fatalf("the first %d of %d bytes parsed without error", n, len(good))
		}
	}
}

func TestOpenMissing(t *testing.T) {
	if _, _, err := gguf.Open(t.TempDir() + "/none.gguf"); err == nil || !os.IsNotExist(unwrapAll(err)) {
		t.Errorf("Open of a missing file: %v", err)
	}
}

func unwrapAll(err error) error {
	for {
		u, ok := err.(interface{ Unwrap() error })
		if !ok {
			return err
		}
		err = u.Unwrap()
	}
}
