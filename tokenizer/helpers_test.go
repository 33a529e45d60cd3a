package tokenizer

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/credo-rl/credo/internal/shareddata"
)

// Loading the 11 MB Qwen3 file takes a noticeable fraction of a second:
// do it once per test binary.
var qwen3 struct {
	once sync.Once
	tok  *BPE
	err  error
}

// qwen3Dir returns the folder of the shared Qwen3 tokenizer (skipping the
// test when the shared data is absent).
func qwen3Dir(t testing.TB) string {
	return shareddata.Path(t, "tokenizers/qwen3")
}

func loadQwen3(t testing.TB) *BPE {
	t.Helper()
	dir := qwen3Dir(t)
	qwen3.once.Do(func() { qwen3.tok, qwen3.err = LoadBPE(dir) })
	if qwen3.err != nil {
		t.Fatal(qwen3.err)
	}
	return qwen3.tok
}

var tiny struct {
	once sync.Once
	tok  *BPE
	err  error
}

// loadTiny returns the small tokenizer in testdata/tiny (a byte-level BPE
// with 300 merges, Qwen's pre-tokenizer and NFC).
func loadTiny(t testing.TB) *BPE {
	t.Helper()
	tiny.once.Do(func() { tiny.tok, tiny.err = LoadBPE("testdata/tiny") })
	if tiny.err != nil {
		t.Fatal(tiny.err)
	}
	return tiny.tok
}

// checkTiling fails unless offsets has one range per id and the ranges are
// consecutive and cover text exactly.
func checkTiling(t testing.TB, text string, ids []int32, offsets [][2]int) {
	t.Helper()
	if len(ids) != len(offsets) {
		t.Fatalf("%q: %d ids but %d offsets", text, len(ids), len(offsets))
	}
	pos := 0
	for i, o := range offsets {
		if o[0] != pos || o[1] < o[0] {
			t.Fatalf("%q: token %d has range %v, want it to start at %d (offsets %v)", text, i, o, pos, offsets)
		}
		pos = o[1]
	}
	if pos != len(text) {
		t.Fatalf("%q: offsets end at %d, want %d", text, pos, len(text))
	}
}

// checkOffsetsMatchTokens fails unless every token's range holds exactly the
// token's bytes (true whenever the text needs no normalization).
func checkOffsetsMatchTokens(t testing.TB, tok Tokenizer, text string, ids []int32, offsets [][2]int) {
	t.Helper()
	for i, id := range ids {
		if got, want := text[offsets[i][0]:offsets[i][1]], string(tok.TokenBytes(id)); got != want {
			t.Fatalf("%q: token %d (id %d) covers %q but stands for %q", text, i, id, got, want)
		}
	}
}

// readField returns one string field of every record of a JSON Lines file.
func readField(t testing.TB, path, field string) []string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var rec map[string]any
		if err := json.Unmarshal(sc.Bytes(), &rec); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		s, ok := rec[field].(string)
		if !ok {
			t.Fatalf("%s: record without string field %q", path, field)
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// reference is testdata/reference.json: encodings made by an independent
// implementation (Hugging Face's tokenizers.js, @huggingface/tokenizers
// 0.2.0) of the same tokenizer files.
type reference struct {
	Qwen3       []refCase `json:"qwen3"`
	Tiny        []refCase `json:"tiny"`
	Qwen3GSM8K  refDigest `json:"qwen3_gsm8k"`
	Qwen3IFEval refDigest `json:"qwen3_ifeval"`
}

type refCase struct {
	Text string  `json:"text"`
	IDs  []int32 `json:"ids"`
}

// refDigest is the SHA-256 of every record's ids, written as decimal
// numbers joined by "," with a "\n" after each record.
type refDigest struct {
	Records int    `json:"records"`
	SHA256  string `json:"sha256"`
}

func loadReference(t testing.TB) reference {
	t.Helper()
	data, err := os.ReadFile("testdata/reference.json")
	if err != nil {
		t.Fatal(err)
	}
	var r reference
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// idsDigest is the refDigest hash of a list of encodings.
func idsDigest(all [][]int32) string {
	h := sha256.New()
	for _, ids := range all {
		for i, id := range ids {
			if i > 0 {
				h.Write([]byte{','})
			}
			h.Write(strconv.AppendInt(nil, int64(id), 10))
		}
		h.Write([]byte{'\n'})
	}
	return hex.EncodeToString(h.Sum(nil))
}
