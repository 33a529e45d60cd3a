package sql

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/credo-rl/credo/task"
)

func TestRegistered(t *testing.T) {
	tk, err := task.New("sql", task.Config{Seed: 3, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer tk.(*Task).Close()
	names := []string{}
	for _, v := range tk.Rewards() {
		names = append(names, v.Name())
	}
	if tk.Name() != "sql" || !slices.Equal(names, []string{"format", "executes", "result"}) {
		t.Errorf("task %q with rewards %v", tk.Name(), names)
	}
}

// Every reference query runs, returns rows, scores 1 on every reward, and
// a wrapped ordered query keeps the order SQLite gives it unwrapped.
func TestReferencesScoreOne(t *testing.T) {
	tk := openTask(t, 11, Options{})
	ctx := context.Background()
	kinds := map[string]int{}
	for _, split := range []task.Split{task.Train, task.Test} {
		for i := range 250 {
			p := tk.Prompt(split, i)
			ref := p.Ref.(Ref)
			kinds[ref.Kind]++
			resp := wellFormed(ref.Think, ref.Query)
			if len(resp) < 60 || len(resp) > 160 {
				t.Errorf("%s: response is %d bytes: %q", p.ID, len(resp), resp)
			}
			for name, v := range verifyAll(t, tk, p, resp) {
				if v.Score != 1 {
					t.Errorf("%s: %s = %v (%s) for %q", p.ID, name, v.Score, v.Reason, ref.Query)
				}
			}
			o, err := tk.box.run(ctx, ref.Query)
			if err != nil || o.err != "" || len(o.rows) == 0 {
				t.Errorf("%s: %q gives %d rows, %v %q", p.ID, ref.Query, len(o.rows), err, o.err)
			}
			if ref.Ordered != strings.Contains(ref.Query, "ORDER BY") {
				t.Errorf("%s: Ordered = %v for %q", p.ID, ref.Ordered, ref.Query)
			}
			if ref.Ordered {
				raw := rawRows(t, tk, ref.Query)
				if why := sameResult(o.cols, o.rows, o.cols, raw, true); why != "" {
					t.Errorf("%s: wrapped order differs from raw: %s", p.ID, why)
				}
			}
		}
	}
	for _, k := range []string{"filter", "join", "group", "order"} {
		if kinds[k] < 50 {
			t.Errorf("only %d %s questions in 500", kinds[k], k)
		}
	}
}

// rawRows runs query as it is, without the sandbox's wrapper.
func rawRows(t *testing.T, tk *Task, query string) [][]value {
	rows, err := tk.DB().Query(query)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out [][]value
	for rows.Next() {
		dest, ptrs := make([]any, len(cols)), make([]any, len(cols))
		for i := range dest {
			ptrs[i] = &dest[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]value, len(cols))
		for i := range row {
			row[i] = toValue(dest[i])
		}
		out = append(out, row)
	}
	return out
}

func TestSplitsDisjoint(t *testing.T) {
	tk := openTask(t, 5, Options{})
	train, test := map[string]bool{}, map[string]bool{}
	ids := map[string]bool{}
	testKinds := map[string]bool{}
	for i := range 3000 {
		a, b := tk.Prompt(task.Train, i), tk.Prompt(task.Test, i)
		train[a.Text], test[b.Text] = true, true
		testKinds[b.Ref.(Ref).Kind] = true
		for _, p := range []task.Prompt{a, b} {
			if ids[p.ID] {
				t.Fatalf("ID %q twice", p.ID)
			}
			ids[p.ID] = true
		}
	}
	for text := range test {
		if train[text] {
			t.Fatalf("prompt in both splits: %q", text)
		}
	}
	if len(testKinds) != 4 || len(test) < 200 || len(train) < 500 {
		t.Errorf("test split has kinds %v, %d distinct prompts; train %d", testKinds, len(test), len(train))
	}
}

func TestDeterminism(t *testing.T) {
	a, b, c := openTask(t, 21, Options{}), openTask(t, 21, Options{}), openTask(t, 22, Options{})
	if fileHash(t, a.Path()) != fileHash(t, b.Path()) {
		t.Error("same seed, different database bytes")
	}
	if fileHash(t, a.Path()) == fileHash(t, c.Path()) {
		t.Error("different seeds, same database bytes")
	}
	same := 0
	for i := range 50 {
		for _, s := range []task.Split{task.Train, task.Test} {
			pa, pb, pc := a.Prompt(s, i), b.Prompt(s, i), c.Prompt(s, i)
			if pa.Text != pb.Text || pa.Ref != pb.Ref {
				t.Fatalf("prompt %d differs for the same seed: %q vs %q", i, pa.Text, pb.Text)
			}
			if pa.Text == pc.Text {
				same++
			}
		}
	}
	if same > 20 {
		t.Errorf("%d of 100 prompts equal across seeds", same)
	}
	cfg := task.DemoConfig{DefaultFlawRate: 0.3, BlockRate: 0.5}
	da, db := a.Demos(60, 9, cfg), b.Demos(60, 9, cfg)
	for i := range da {
		if fmt.Sprint(da[i]) != fmt.Sprint(db[i]) {
			t.Fatalf("demo %d differs for the same seeds:\n%v\n%v", i, da[i], db[i])
		}
	}
	if fmt.Sprint(a.Demos(60, 10, cfg)) == fmt.Sprint(da) {
		t.Error("different demo seeds, same demos")
	}
}

// Each demonstration scores 0 on exactly the rewards it says it flaws,
// flaw rates match the configuration, and a demonstration follows the
// blocks its prompt carries.
func TestDemos(t *testing.T) {
	tk := openTask(t, 8, Options{})
	cfg := task.DemoConfig{FlawRate: map[string]float64{"format": 0.2, "executes": 0.15, "result": 0.35}, BlockRate: 0.5}
	const n = 600
	demos, qs := tk.demos(n, 1, cfg)
	if len(demos) != n {
		t.Fatalf("%d demos, want %d", len(demos), n)
	}
	flawed := map[string]int{}
	withBlocks, refBlocks, errBlocks, counter := 0, 0, 0, 0
	for i, d := range demos {
		question, blocks, _ := strings.Cut(d.Prompt, "\n\n")
		if question != promptText(qs[i].text) {
			t.Fatalf("demo %d: prompt %q for question %q", i, question, qs[i].text)
		}
		if tk.splitOf(qs[i].text) != task.Train {
			t.Errorf("demo %d: test question %q", i, qs[i].text)
		}
		p := task.Prompt{ID: fmt.Sprint("demo-", i), Text: question, Ref: qs[i].Ref}
		verdicts := verifyAll(t, tk, p, d.Response)
		for _, name := range []string{"format", "executes", "result"} {
			want := 1.0
			if slices.Contains(d.Flaws, name) {
				want = 0
				if name != "result" || !strings.Contains(blocks, "Reference query: ") { // a counterfactual block's query is no slip
					flawed[name]++
				}
			}
			if got := verdicts[name].Score; got != want {
				t.Errorf("demo %d: %s = %v, want %v (flaws %v; %s)\n%s", i, name, got, want, d.Flaws, verdicts[name].Reason, d.Response)
			}
		}
		if blocks == "" {
			continue
		}
		withBlocks++
		for _, b := range strings.Split(blocks, "\n\n") {
			switch {
			case b == FormatInfo:
				if slices.Contains(d.Flaws, "format") {
					t.Errorf("demo %d: format block with a format flaw", i)
				}
			case strings.HasPrefix(b, "Reference query: "):
				refBlocks++
				q, _, _ := extractAnswer(d.Response)
				if ResultInfo(q) != b {
					t.Errorf("demo %d: block %q, answer %q", i, b, q)
				}
				if q != qs[i].Query {
					counter++
					if !slices.Contains(d.Flaws, "result") {
						t.Errorf("demo %d: counterfactual block %q without a result flaw", i, b)
					}
				}
			case strings.HasPrefix(b, "Error: "):
				errBlocks++
				if slices.Contains(d.Flaws, "executes") {
					t.Errorf("demo %d: error block with an executes flaw", i)
				}
			default:
				t.Errorf("demo %d: unknown block %q", i, b)
			}
		}
	}
	for name, want := range map[string]float64{"format": 0.2, "executes": 0.15, "result": 0.35} {
		if got := float64(flawed[name]) / n; got < want-0.06 || got > want+0.06 {
			t.Errorf("%s flawed in %.3f of demos, want %.2f", name, got, want)
		}
	}
	if got := float64(withBlocks) / n; got < 0.42 || got > 0.58 {
		t.Errorf("%.3f of demos carry blocks, want 0.5", got)
	}
	if got := float64(counter) / float64(refBlocks); got < counterShare-0.12 || got > counterShare+0.12 {
		t.Errorf("%d of %d reference blocks are counterfactual, want about %.2f", counter, refBlocks, counterShare)
	}
	if refBlocks == 0 || errBlocks == 0 {
		t.Errorf("reference blocks %d, error blocks %d", refBlocks, errBlocks)
	}
}

func TestClose(t *testing.T) {
	tk, err := Open(task.Config{Seed: 1}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Dir(tk.Path())
	if err := tk.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("temporary directory %s still there (%v)", dir, err)
	}
	keep := t.TempDir()
	tk, err = Open(task.Config{Seed: 1, Dir: keep}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := tk.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(keep, "sql-1.db")); err != nil {
		t.Errorf("database in the caller's directory is gone: %v", err)
	}
}

// Verify is safe for concurrent use and gives the same verdicts as serially.
func TestConcurrentVerify(t *testing.T) {
	tk := openTask(t, 4, Options{})
	demos, qs := tk.demos(80, 2, task.DemoConfig{DefaultFlawRate: 0.3})
	prompts := make([]task.Prompt, len(demos))
	for i, d := range demos {
		prompts[i] = task.Prompt{ID: fmt.Sprint(i), Text: d.Prompt, Ref: qs[i].Ref}
	}
	serial := make([]string, len(demos))
	for i, d := range demos {
		serial[i] = fmt.Sprint(verifyAll(t, tk, prompts[i], d.Response))
	}
	var wg sync.WaitGroup
	for w := range 8 {
		wg.Go(func() {
			for k := range demos {
				i := (k + w*7) % len(demos)
				got := map[string]any{}
				for _, v := range tk.Rewards() {
					vd, err := v.Verify(context.Background(), prompts[i], demos[i].Response)
					if err != nil {
						t.Error(err)
						return
					}
					got[v.Name()] = vd
				}
				if fmt.Sprint(got) != serial[i] {
					t.Errorf("demo %d: concurrent %v, serial %v", i, got, serial[i])
				}
			}
		})
	}
	wg.Wait()
}

func TestVerifyRejectsForeignPrompt(t *testing.T) {
	tk := openTask(t, 1, Options{})
	_, err := tk.Rewards()[2].Verify(context.Background(), task.Prompt{ID: "x", Ref: 42}, wellFormed("t", "SELECT 1"))
	if err == nil || !strings.Contains(err.Error(), "sql.Ref") {
		t.Errorf("error = %v", err)
	}
}

func TestCanceledContext(t *testing.T) {
	tk := openTask(t, 1, Options{CacheBytes: -1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	p := tk.Prompt(task.Train, 0)
	if _, err := tk.Rewards()[1].Verify(ctx, p, wellFormed("t", "SELECT 1")); err == nil {
		t.Error("a canceled context gave no error")
	}
}
