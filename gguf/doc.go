// Package gguf reads GGUF files, llama.cpp's model format: the header, the
// metadata key/values, the tensor table and its alignment, and each
// tensor's data dequantized to float32 (F32, F16, BF16, Q8_0, Q4_0, Q4_1,
// Q5_0, Q5_1; any other type is an error naming it).
//
// Parsing is bounded by the file: every count and length is checked
// against the bytes left before anything is allocated, so a truncated or
// hostile file gives an error, never a panic or an unbounded allocation.
//
// It imports only the standard library. The conversion of a llama GGUF to
// a Hugging Face folder is in gguf/tohf.
//
// It needs no GoMLX (go list -deps names none).
package gguf
