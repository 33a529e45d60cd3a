package replay

import (
	"slices"
	"testing"
)

// FuzzSharePrefixes: for any sorted batch, every sequence is its stored
// prefix's first Use tokens followed by its suffix, extends at least one
// prefix token and stops before its first asked position, and the stored
// prefixes and suffixes never hold more tokens than the sequences do.
func FuzzSharePrefixes(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 0, 1, 2, 3, 9, 0, 1, 2, 7, 7}, []byte{3, 3, 2})
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 2, 3, 4, 5, 9, 9}, []byte{7, 4})
	f.Fuzz(func(t *testing.T, data, starts []byte) {
		// Sequences are data cut at zeros, over a 3-token alphabet so they
		// share prefixes often; each needs two tokens and a start in [1, len).
		var seqs [][]int32
		var cur []int32
		for _, b := range data {
			if b == 0 {
				if len(cur) >= 2 {
					seqs = append(seqs, cur)
				}
				cur = nil
				continue
			}
			cur = append(cur, int32(b%3+1))
		}
		if len(cur) >= 2 {
			seqs = append(seqs, cur)
		}
		if len(seqs) == 0 {
			return
		}
		slices.SortFunc(seqs, slices.Compare)
		from := make([]int, len(seqs))
		for i, q := range seqs {
			k := 1
			if i < len(starts) {
				k = int(starts[i])
			}
			from[i] = 2 + k%(len(q)-1) // in [2, len]: a prefix of at least one token fits
		}
		s := sharePrefixes(seqs, from)
		stored, total := 0, 0
		for _, p := range s.Prefixes {
			stored += len(p)
		}
		for i, q := range seqs {
			total += len(q)
			use := s.Use[i]
			if use < 1 || use >= from[i] || use > len(s.Prefixes[s.Owner[i]]) {
				t.Fatalf("sequence %d %v (start %d): uses %d of prefix %v", i, q, from[i], use, s.Prefixes[s.Owner[i]])
			}
			if got := append(slices.Clone(s.Prefixes[s.Owner[i]][:use]), s.Suffixes[i]...); !slices.Equal(got, q) {
				t.Fatalf("sequence %d: prefix+suffix %v, want %v", i, got, q)
			}
			stored += len(s.Suffixes[i])
		}
		if stored > total {
			t.Fatalf("sharing stores %d tokens for %d", stored, total)
		}
	})
}
