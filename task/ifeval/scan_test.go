package ifeval

import (
	"regexp"
	"testing"
)

// pySpaceClass is Python's \s (isSpace) as a Go regular-expression class.
const pySpaceClass = `[\t\n\v\f\r \x1c-\x1f\x{85}\x{a0}\x{1680}\x{2000}-\x{200a}\x{2028}\x{2029}\x{202f}\x{205f}\x{3000}]`

// The scanners must find what IFEval's regular expressions find; Go's
// regexp, with Python's classes written out, is the reference here (it is
// correct but slow: a few MB/s).
var (
	refDivider  = regexp.MustCompile(pySpaceClass + `?\*\*\*` + pySpaceClass + `?`)
	refSection  = regexp.MustCompile(pySpaceClass + `?Section` + pySpaceClass + `?\p{Nd}+` + pySpaceClass + `?`)
	refStar     = regexp.MustCompile(`(?m)^` + pySpaceClass + `*\*[^\*].*$`)
	refDash     = regexp.MustCompile(`(?m)^` + pySpaceClass + `*-.*$`)
	refHigh     = regexp.MustCompile(`\*[^\n\*]*\*`)
	refHigh2    = regexp.MustCompile(`\*\*[^\n\*]*\*\*`)
	refTitle    = regexp.MustCompile(`<<[^\n]+>>`)
	refBrackets = regexp.MustCompile(`\[.*?\]`)
)

func sameMatches(t *testing.T, name, s string, got [][2]int, want [][]int, startsOnly bool) {
	t.Helper()
	ok := len(got) == len(want)
	for i := 0; ok && i < len(got); i++ {
		ok = got[i][1] == want[i][1] && (startsOnly || got[i][0] == want[i][0])
	}
	if !ok {
		t.Fatalf("%s on %q: scanner %v, regexp %v", name, s, got, want)
	}
}

func compareScanners(t *testing.T, s string) {
	sameMatches(t, "dividers", s, dividers(s), refDivider.FindAllStringIndex(s, -1), false)
	sameMatches(t, "sections", s, sectionMarks(s, "Section"), refSection.FindAllStringIndex(s, -1), false)
	// Bullet spans start at the marker rather than the line start.
	sameMatches(t, "star bullets", s, bulletLines(s, true), refStar.FindAllStringIndex(s, -1), true)
	sameMatches(t, "dash bullets", s, bulletLines(s, false), refDash.FindAllStringIndex(s, -1), true)
	sameMatches(t, "highlights", s, highlightMarks(s, false), refHigh.FindAllStringIndex(s, -1), false)
	sameMatches(t, "double highlights", s, highlightMarks(s, true), refHigh2.FindAllStringIndex(s, -1), false)
	sameMatches(t, "titles", s, titleMarks(s), refTitle.FindAllStringIndex(s, -1), false)
	sameMatches(t, "placeholders", s, placeholders(s), refBrackets.FindAllStringIndex(s, -1), false)
}

func TestScanners(t *testing.T) {
	frags := []string{"*", "**", "-", "\n", " ", "\u00a0", "\u2003", "<<", ">>", "<", ">", "[", "]", "Section", "1", "\u0663", "x", "é", "\xff"}
	// Every string of up to four fragments.
	var walk func(prefix string, depth int)
	n := 0
	walk = func(prefix string, depth int) {
		compareScanners(t, prefix)
		n++
		if depth == 0 {
			return
		}
		for _, f := range frags {
			walk(prefix+f, depth-1)
		}
	}
	walk("", 4)
	if n < 100000 {
		t.Fatalf("only %d strings", n)
	}
}

// FuzzScanners compares the scanners with Go's regexp on fuzzed text.
func FuzzScanners(f *testing.F) {
	for _, s := range []string{"* a\n- b\n\n  * c", "x ***\u00a0y", "Section\u00a0\u0663 Section 12 ", "**a** *b* ***", "<<a>> <<b>>\n<<", "[a[b] [\n]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { compareScanners(t, s) })
}
