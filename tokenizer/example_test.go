package tokenizer_test

import (
	"fmt"

	"github.com/credo-rl/credo/tokenizer"
)

func ExampleBytes() {
	tok, err := tokenizer.NewBytes()
	if err != nil {
		panic(err)
	}
	ids, offsets := tok.Encode("Hi<think>ok</think>")
	fmt.Println(ids)
	fmt.Println(offsets)
	fmt.Println(tok.Decode(ids))
	fmt.Println(tok.EncodePrompt("2+2?"), tok.EOS())
	// Output:
	// [72 105 261 111 107 262]
	// [[0 1] [1 2] [2 9] [9 10] [10 11] [11 19]]
	// Hi<think>ok</think>
	// [256 259 50 43 50 63 260] 257
}

// Load detects the kind of tokenizer a folder holds; here a small
// Hugging Face byte-level BPE (Qwen's pre-tokenizer, 300 merges).
func ExampleLoad() {
	tok, err := tokenizer.Load("testdata/tiny")
	if err != nil {
		panic(err)
	}
	text := "Natalia sold 48 clips.<|im_end|>"
	ids, offsets := tok.Encode(text)
	for i, id := range ids {
		fmt.Printf("%d %q %v\n", id, text[offsets[i][0]:offsets[i][1]], offsets[i])
	}
	fmt.Println(tok.EOS() == ids[len(ids)-1])
	// Output:
	// 315 "Natalia" [0 7]
	// 358 " sold" [7 12]
	// 220 " " [12 13]
	// 19 "4" [13 14]
	// 23 "8" [14 15]
	// 303 " clips" [15 21]
	// 13 "." [21 22]
	// 558 "<|im_end|>" [22 32]
	// true
}
