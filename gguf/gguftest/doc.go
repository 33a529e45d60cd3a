// Package gguftest writes GGUF files for tests: a Writer of metadata and
// tensors, ggml's reference quantizers for the types gguf reads, and a tiny
// llama model with a byte-level BPE vocabulary (TinyLlama) laid out as
// llama.cpp's converter lays a Hugging Face checkpoint out. Tests of gguf,
// gguf/tohf and the import-gguf command build their inputs with it, so they
// never need a real model file.
//
// It imports gguf and the standard library (testing for Parse).
package gguftest
