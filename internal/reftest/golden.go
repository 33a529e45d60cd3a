package reftest

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Golden checks digests (key → digest) against file, one "key digest" line
// per key, and fails t for each key whose digest changed, is new, or is no
// longer computed; with update it rewrites file from got instead. A change
// meant only to be faster must leave file as it is.
func Golden(t testing.TB, file string, got map[string]string, update bool) {
	t.Helper()
	if update {
		var sb strings.Builder
		for _, key := range slices.Sorted(maps.Keys(got)) {
			fmt.Fprintf(&sb, "%s %s\n", key, got[key])
		}
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, []byte(sb.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := readGolden(t, file)
	for _, key := range slices.Sorted(maps.Keys(got)) {
		if w, ok := want[key]; !ok {
			t.Errorf("%s: not in %s (run with -update if it is new)", key, file)
		} else if w != got[key] {
			t.Errorf("%s: output changed (digest %.12s, want %.12s)", key, got[key], w)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(want)) {
		if _, ok := got[key]; !ok {
			t.Errorf("%s: in %s but no longer computed", key, file)
		}
	}
}

func readGolden(t testing.TB, file string) map[string]string {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		key, d, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			t.Fatalf("%s: bad line %q", file, sc.Text())
		}
		want[key] = d
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return want
}
