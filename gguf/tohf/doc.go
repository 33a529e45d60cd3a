// Package tohf converts a llama GGUF file (llama.cpp's format) into a Hugging
// Face checkpoint folder that credo and transformers both load:
// config.json, model.safetensors (float32 or bfloat16, dequantized, with
// llama.cpp's rotary row permutation of q and k undone), tokenizer.json (a
// byte-level BPE built from tokenizer.ggml.*) and tokenizer_config.json
// (special tokens and the chat template).
//
// It imports gguf, model (the config and safetensors writer), policy (to
// load the folder back before it is put in place) and internal/atomicfile.
package tohf
