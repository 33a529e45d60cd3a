package gguf

import (
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
)

// ValueType is a metadata value's type (gguf_type).
type ValueType uint32

// The metadata value types.
const (
	TypeUint8 ValueType = iota
	TypeInt8
	TypeUint16
	TypeInt16
	TypeUint32
	TypeInt32
	TypeFloat32
	TypeBool
	TypeString
	TypeArray
	TypeUint64
	TypeInt64
	TypeFloat64
)

var valueTypeNames = [...]string{"uint8", "int8", "uint16", "int16", "uint32", "int32", "float32", "bool", "string", "array", "uint64", "int64", "float64"}

// valueSize is each scalar type's size in bytes (a string's at least: its length).
var valueSize = [...]uint64{1, 1, 2, 2, 4, 4, 4, 1, 8, 12, 8, 8, 8}

func (t ValueType) String() string {
	if int(t) < len(valueTypeNames) {
		return valueTypeNames[t]
	}
	return fmt.Sprintf("value type %d", uint32(t))
}

// maxNesting bounds arrays of arrays.
const maxNesting = 4

// Value is one metadata value. Scalars are held as the Go type of their
// GGUF type (uint8 … float64, bool, string); an array as []Value.
type Value struct {
	Type ValueType
	// Elem is an array's element type.
	Elem ValueType
	v    any
}

// Any is the value as its Go type (see Value).
func (v Value) Any() any { return v.v }

// value reads a value of type t.
func (d *decoder) value(t ValueType, depth int) (Value, error) {
	if t == TypeArray {
		return d.array(depth)
	}
	v := Value{Type: t}
	switch t {
	case TypeBool:
		b := d.u8()
		if d.err == nil && b > 1 {
			return v, fmt.Errorf("bool byte is %d, want 0 or 1", b)
		}
		v.v = b == 1
	case TypeString:
		v.v = d.str()
	default:
		zero, ok := numbers[t]
		if !ok {
			return v, fmt.Errorf("unknown value type %d", uint32(t))
		}
		b := d.bytes(int64(valueSize[t]))
		if d.err != nil {
			return v, d.err
		}
		p := reflect.New(reflect.TypeOf(zero))
		if _, err := binary.Decode(b, binary.LittleEndian, p.Interface()); err != nil {
			return v, err
		}
		v.v = p.Elem().Interface()
	}
	return v, d.err
}

// numbers holds a zero of the Go type of each numeric value type.
var numbers = map[ValueType]any{
	TypeUint8: uint8(0), TypeInt8: int8(0), TypeUint16: uint16(0), TypeInt16: int16(0), TypeUint32: uint32(0),
	TypeInt32: int32(0), TypeFloat32: float32(0), TypeUint64: uint64(0), TypeInt64: int64(0), TypeFloat64: float64(0),
}

// array reads an array: its element type, a u64 count and the elements.
func (d *decoder) array(depth int) (Value, error) {
	et := ValueType(d.u32())
	n := d.u64()
	if d.err != nil {
		return Value{}, d.err
	}
	if int(et) >= len(valueSize) {
		return Value{}, fmt.Errorf("array of unknown value type %d", uint32(et))
	}
	if et == TypeArray && depth+1 >= maxNesting {
		return Value{}, fmt.Errorf("arrays nested more than %d deep", maxNesting)
	}
	if err := d.fits(n, valueSize[et], "array elements of type "+et.String()); err != nil {
		return Value{}, err
	}
	out := make([]Value, n)
	for i := range out {
		e, err := d.value(et, depth+1)
		if err != nil {
			return Value{}, fmt.Errorf("element %d of %d: %w", i, n, err)
		}
		out[i] = e
	}
	return Value{Type: TypeArray, Elem: et, v: out}, nil
}

// lookup returns key's value or an error saying it is missing.
func (f *File) lookup(key string) (Value, error) {
	v, ok := f.Metadata[key]
	if !ok {
		return v, fmt.Errorf("metadata key %s is missing", key)
	}
	return v, nil
}

// Has reports whether the metadata holds key.
func (f *File) Has(key string) bool { _, ok := f.Metadata[key]; return ok }

// String is key's value as a string.
func (f *File) String(key string) (string, error) {
	v, err := f.lookup(key)
	if err != nil {
		return "", err
	}
	s, ok := v.v.(string)
	if !ok {
		return "", fmt.Errorf("metadata key %s is %s, want a string", key, v.Type)
	}
	return s, nil
}

// Bool is key's value as a bool.
func (f *File) Bool(key string) (bool, error) {
	v, err := f.lookup(key)
	if err != nil {
		return false, err
	}
	b, ok := v.v.(bool)
	if !ok {
		return false, fmt.Errorf("metadata key %s is %s, want a bool", key, v.Type)
	}
	return b, nil
}

// Int is key's value as an int64, from any integer type that holds it.
func (f *File) Int(key string) (int64, error) {
	v, err := f.lookup(key)
	if err != nil {
		return 0, err
	}
	n, ok := toInt(v.v)
	if !ok {
		return 0, fmt.Errorf("metadata key %s is %s %v, want an integer", key, v.Type, v.v)
	}
	return n, nil
}

// Float is key's value as a float64, from float32 or float64.
func (f *File) Float(key string) (float64, error) {
	v, err := f.lookup(key)
	if err != nil {
		return 0, err
	}
	switch x := v.v.(type) {
	case float32:
		return float64(x), nil
	case float64:
		return x, nil
	}
	return 0, fmt.Errorf("metadata key %s is %s, want a float", key, v.Type)
}

// Strings is key's value as an array of strings.
func (f *File) Strings(key string) ([]string, error) {
	v, err := f.lookup(key)
	if err != nil {
		return nil, err
	}
	if v.Type != TypeArray || v.Elem != TypeString {
		return nil, fmt.Errorf("metadata key %s is %s of %s, want an array of strings", key, v.Type, v.Elem)
	}
	elems := v.v.([]Value)
	out := make([]string, len(elems))
	for i, e := range elems {
		out[i] = e.v.(string)
	}
	return out, nil
}

// Ints is key's value as an array of int64, from any integer element type.
func (f *File) Ints(key string) ([]int64, error) {
	v, err := f.lookup(key)
	if err != nil {
		return nil, err
	}
	bad := fmt.Errorf("metadata key %s is %s of %s, want an array of integers", key, v.Type, v.Elem)
	elems, ok := v.v.([]Value)
	if !ok {
		return nil, bad
	}
	out := make([]int64, len(elems))
	for i, e := range elems {
		if out[i], ok = toInt(e.v); !ok {
			return nil, bad
		}
	}
	return out, nil
}

// toInt converts any integer scalar that fits an int64.
func toInt(v any) (int64, bool) {
	r := reflect.ValueOf(v)
	switch {
	case r.CanInt():
		return r.Int(), true
	case r.CanUint():
		return int64(r.Uint()), r.Uint() <= math.MaxInt64
	}
	return 0, false
}
