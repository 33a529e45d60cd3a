package reftest

import (
	"go/doc"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Every example in the module that writes an "Output:" comment has it
// seen by go test: a comment line joined to it (no blank line between)
// makes go/doc find no output, and the example is compiled but never run.
// Two of credit's examples were like that.
func TestExamplesCheckTheirOutput(t *testing.T) {
	root := filepath.Join("..", "..")
	seen := 0
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "third_party" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && path != root {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, e := range doc.Examples(f) {
			seen++
			body := string(src[fset.Position(e.Code.Pos()).Offset:fset.Position(e.Code.End()).Offset])
			if e.Output == "" && !e.EmptyOutput && strings.Contains(body, "Output:") {
				t.Errorf("%s: Example%s has an Output: comment that go test does not see (put a blank line before it)", path, e.Name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 10 {
		t.Fatalf("found %d examples under %s: the walk is not reading the module", seen, root)
	}
	t.Logf("%d examples", seen)
}
