// Package tokenizer turns text into token ids and back, and reports the byte
// range of every token in the text it came from, so that credit assignment can
// map a verifier's byte spans onto tokens.
//
// Two kinds implement the Tokenizer interface:
//
//   - Bytes, a byte-level tokenizer for the small models trained here: ids
//     0–255 are the raw bytes, then named special tokens (<|bos|>, <think>, …).
//     Any byte string, valid UTF-8 or not, round-trips exactly.
//   - BPE, a Hugging Face tokenizer.json byte-level BPE (Qwen2/Qwen3,
//     Llama-3, GPT-2 style): added tokens, NFC normalization, the Split/ByteLevel
//     pre-tokenizers and a ranked merge loop with a word cache.
//
// Load reads either kind back from a checkpoint folder; Save writes it there.
//
// Offsets always refer to the text given to Encode and tile it: token i covers
// [offsets[i][0], offsets[i][1]), the first starts at 0, each starts where the
// previous one ended and the last ends at len(text). When NFC normalization
// changes the text, a token that begins inside a changed stretch is given an
// empty range at the end of that stretch, so the whole stretch is credited to
// the token that holds its first character (see BPE.Encode).
//
// It imports internal/atomicfile only.
//
// It needs no GoMLX (go list -deps names none).
package tokenizer
