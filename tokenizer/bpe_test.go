package tokenizer

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// refBPE is a deliberately plain BPE written from the textbook description
// (GPT-2's encoder.py): on the vocabulary's strings, repeatedly merge every
// occurrence of the lowest-ranked adjacent pair.
type refBPE struct {
	ranks map[[2]string]int
	vocab map[string]int32
	bl    *byteLevel
}

func newRefBPE(t testing.TB, path string) *refBPE {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Model struct {
			Vocab  map[string]int32 `json:"vocab"`
			Merges json.RawMessage  `json:"merges"`
		} `json:"model"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	merges, err := parseMerges(f.Model.Merges)
	if err != nil {
		t.Fatal(err)
	}
	r := &refBPE{ranks: map[[2]string]int{}, vocab: f.Model.Vocab, bl: newByteLevel()}
	for i, m := range merges {
		if _, ok := r.ranks[m]; !ok {
			r.ranks[m] = i
		}
	}
	return r
}

func (r *refBPE) encode(word string) []int32 {
	var syms []string
	for i := 0; i < len(word); i++ {
		syms = append(syms, r.bl.encode([]byte{word[i]}))
	}
	for len(syms) > 1 {
		best, bestRank := [2]string{}, -1
		for i := 0; i+1 < len(syms); i++ {
			if rk, ok := r.ranks[[2]string{syms[i], syms[i+1]}]; ok && (bestRank < 0 || rk < bestRank) {
				best, bestRank = [2]string{syms[i], syms[i+1]}, rk
			}
		}
		if bestRank < 0 {
			break
		}
		var next []string
		for i := 0; i < len(syms); i++ {
			if i+1 < len(syms) && syms[i] == best[0] && syms[i+1] == best[1] {
				next = append(next, best[0]+best[1])
				i++
			} else {
				next = append(next, syms[i])
			}
		}
		syms = next
	}
	ids := make([]int32, len(syms))
	for i, s := range syms {
		ids[i] = r.vocab[s]
	}
	return ids
}

// randomWord draws from the tiny tokenizer's training text, so that many
// merges apply, with some arbitrary bytes mixed in.
func randomWord(r *rand.Rand, n int) string {
	const alphabet = "Natalia sold clips to her friends in April and May the answer is step "
	var sb strings.Builder
	for range n {
		if r.IntN(10) == 0 {
			sb.WriteByte(byte(r.IntN(256)))
		} else {
			sb.WriteByte(alphabet[r.IntN(len(alphabet))])
		}
	}
	return sb.String()
}

// The quadratic merge loop, the heap merge loop and the reference must agree.
func TestMergeLoopsAgree(t *testing.T) {
	tok := loadTiny(t)
	ref := newRefBPE(t, "testdata/tiny/tokenizer.json")
	r := rand.New(rand.NewPCG(3, 4))
	words := []string{"ab", "Natalia", " clips", "aaaaaaaaaaa", "                ", strings.Repeat("the answer ", 40)}
	for range 3000 {
		words = append(words, randomWord(r, 2+r.IntN(30)))
	}
	for range 50 {
		words = append(words, randomWord(r, 300+r.IntN(700)))
	}
	for _, w := range words {
		want := ref.encode(w)
		if got := tok.mergeSmall(w, nil); !slices.Equal(got, want) {
			t.Fatalf("mergeSmall(%q) = %v, reference %v", w, got, want)
		}
		if got := tok.mergeHeap(w, nil); !slices.Equal(got, want) {
			t.Fatalf("mergeHeap(%q) = %v, reference %v", w, got, want)
		}
		// word goes through the cache; ask twice.
		for range 2 {
			if got := tok.word(w, nil); !slices.Equal(got, want) {
				t.Fatalf("word(%q) = %v, reference %v", w, got, want)
			}
		}
	}
}

func TestMergeLoopsAgreeQwen3(t *testing.T) {
	if testing.Short() {
		t.Skip("loads the Qwen3 tokenizer")
	}
	tok := loadQwen3(t)
	ref := newRefBPE(t, qwen3Dir(t)+"/tokenizer.json")
	words := []string{" Hello", " tokenization", " antidisestablishmentarianism", "                                ",
		" 日本語のテキスト", "ingly", " Natalia", "\n\n\n\n", "!!!!!!!!!!!!!!!!!!!!!", " naïve"}
	r := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		words = append(words, randomWord(r, 2+r.IntN(20)))
	}
	for _, w := range words {
		want := ref.encode(w)
		if got := tok.mergeSmall(w, nil); !slices.Equal(got, want) {
			t.Fatalf("mergeSmall(%q) = %v, reference %v", w, got, want)
		}
		if got := tok.mergeHeap(w, nil); !slices.Equal(got, want) {
			t.Fatalf("mergeHeap(%q) = %v, reference %v", w, got, want)
		}
	}
}

func TestWordCacheStopsGrowing(t *testing.T) {
	var c wordCache
	for i := range maxCacheWords + 10 {
		c.put("w"+strconv.Itoa(i), []int32{int32(i)})
	}
	if n := c.n.Load(); n != maxCacheWords {
		t.Errorf("cache holds %d words, want the cap %d", n, maxCacheWords)
	}
	if got, ok := c.get("w0"); !ok || !slices.Equal(got, []int32{0}) {
		t.Errorf("cached word lost: %v %v", got, ok)
	}
}
