// Package hf reads and writes a model as a Hugging Face checkpoint folder:
// config.json (ParseConfig, ReadConfig, WriteConfig: every key is
// understood, inert with a stated reason, pinned to the one value credo
// implements, or refused by name), safetensors files (ReadSafetensors,
// WriteSafetensors, and a folder's shards through
// model.safetensors.index.json), the conversions between float32 and the
// BF16 and F16 storage formats, and whole folders (Load, Save, SaveAs),
// each weight kept in the dtype it was read in.
//
// It imports model (whose Config, FromWeights, DTypes and storage dtype
// names it builds on) and internal/atomicfile, and nothing else of credo;
// model never imports it, so the transformer knows no file format.
package hf
