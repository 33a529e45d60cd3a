package tokenizer

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/credo-rl/credo/internal/shareddata"
)

// tokenizersRef is testdata/tokenizers_qwen3.json: the Qwen3 ids of a
// corpus of real benchmark text by Hugging Face's own tokenizers library,
// written by scripts/tokenizers_reference.py. The corpus stays in
// ../shared/data; the fixture keeps a digest and a count per record (the
// full ids would be megabytes) and the full ids of each source's first
// records.
type tokenizersRef struct {
	Version   string             `json:"tokenizers_version"`
	Tokenizer string             `json:"tokenizer"`
	SHA256    string             `json:"tokenizer_sha256"`
	Sources   []tokenizersSource `json:"sources"`
}

// tokenizersSource is one slice of the corpus: the records of File, each
// the string at Field (a dotted path of keys and indexes; "" is the whole
// line) put into Template at "{text}" (when given).
type tokenizersSource struct {
	File     string    `json:"file"`
	Field    string    `json:"field"`
	Template string    `json:"template"`
	Records  int       `json:"records"`
	Counts   []int     `json:"counts"`
	Digests  []string  `json:"digests"`
	Sample   [][]int32 `json:"sample"`
}

func (s tokenizersSource) String() string {
	f := s.Field
	if f == "" {
		f = "(whole line)"
	}
	if s.Template != "" {
		f += " templated"
	}
	return s.File + " " + f
}

// TestTokenizersCorpus encodes every record of the corpus with credo's
// Qwen3 tokenizer and compares it with tokenizers' encoding, reporting how
// many records differ in each source (want 0).
func TestTokenizersCorpus(t *testing.T) {
	data, err := os.ReadFile("testdata/tokenizers_qwen3.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref tokenizersRef
	if err := json.Unmarshal(data, &ref); err != nil {
		t.Fatalf("testdata/tokenizers_qwen3.json: %v", err)
	}
	file, err := os.ReadFile(shareddata.Path(t, ref.Tokenizer))
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(file); hex.EncodeToString(sum[:]) != ref.SHA256 {
		t.Fatalf("../shared/data/%s is not the file the fixture was written from (SHA-256 %x, fixture %s)", ref.Tokenizer, sum, ref.SHA256)
	}
	tok := loadQwen3(t)
	total, differ := 0, 0
	for _, src := range ref.Sources {
		texts := corpusTexts(t, src)
		if len(texts) != src.Records || len(src.Counts) != src.Records || len(src.Digests) != src.Records {
			t.Fatalf("%s: %d records, the fixture has %d (%d counts, %d digests)", src, len(texts), src.Records, len(src.Counts), len(src.Digests))
		}
		n := compareSource(t, tok, src, texts)
		t.Logf("%-70s %5d records, %d differ", src, len(texts), n)
		total, differ = total+len(texts), differ+n
	}
	t.Logf("%d records: %d differ from tokenizers %s", total, differ, ref.Version)
	if differ > 0 {
		t.Errorf("%d of %d records encode differently from tokenizers %s (details above)", differ, total, ref.Version)
	}
}

// compareSource returns how many of texts credo encodes differently from
// the fixture, describing the first few.
func compareSource(t *testing.T, tok *BPE, src tokenizersSource, texts []string) int {
	t.Helper()
	differ := 0
	for i, text := range texts {
		ids, _ := tok.Encode(text)
		if idsDigest([][]int32{ids})[:16] == src.Digests[i] {
			continue
		}
		if differ++; differ > 3 {
			continue
		}
		at := "outside the fixture's sample of full ids"
		if i < len(src.Sample) {
			at = "first difference at token " + strconv.Itoa(firstDiff(ids, src.Sample[i]))
		}
		t.Errorf("%s record %d (%.60q…): credo %d tokens, tokenizers %d; %s", src, i, text, len(ids), src.Counts[i], at)
	}
	return differ
}

func firstDiff(a, b []int32) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// corpusTexts reads src's records from the shared data as
// scripts/tokenizers_reference.py does: the file split at "\n" (a last
// empty piece dropped), each line or the string at its field path, in the
// template.
func corpusTexts(t *testing.T, src tokenizersSource) []string {
	t.Helper()
	data, err := os.ReadFile(shareddata.Path(t, src.File))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	texts := make([]string, len(lines))
	for i, line := range lines {
		text := line
		if src.Field != "" {
			if text, err = jsonField([]byte(line), src.Field); err != nil {
				t.Fatalf("%s line %d: %v", src.File, i+1, err)
			}
		}
		if src.Template != "" {
			text = strings.ReplaceAll(src.Template, "{text}", text)
		}
		texts[i] = text
	}
	return texts
}

// jsonField returns the string at a dotted path of object keys and array
// indexes in a JSON document.
func jsonField(doc []byte, path string) (string, error) {
	var v any
	if err := json.Unmarshal(doc, &v); err != nil {
		return "", err
	}
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x) {
				return "", fmt.Errorf("%s: no index %s", path, k)
			}
			v = x[i]
		default:
			return "", fmt.Errorf("%s: nothing at %s", path, k)
		}
	}
	s, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s is %T, not a string", path, v)
	}
	return s, nil
}
