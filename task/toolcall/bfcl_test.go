package toolcall

import (
	"bufio"
	"context"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/credo-rl/credo/internal/shareddata"
	"github.com/credo-rl/credo/task"
)

// readLines reads a JSON Lines file of the shared BFCL data.
func readLines(t *testing.T, rel string) []string {
	t.Helper()
	f, err := os.Open(shareddata.Path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) != "" {
			lines = append(lines, sc.Text())
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// bfclPrompts loads the 400 simple_python and 200 multiple questions.
func bfclPrompts(t *testing.T) []task.Prompt {
	t.Helper()
	var out []task.Prompt
	for _, name := range []string{"BFCL_v4_simple_python.json", "BFCL_v4_multiple.json"} {
		qs := readLines(t, "bfcl/"+name)
		as := readLines(t, "bfcl/possible_answer/"+name)
		if len(qs) != len(as) {
			t.Fatalf("%s: %d questions, %d answers", name, len(qs), len(as))
		}
		for i := range qs {
			p, err := ParseBFCL(qs[i], as[i])
			if err != nil {
				t.Fatalf("%s line %d: %v", name, i+1, err)
			}
			out = append(out, p)
		}
	}
	return out
}

// callResponse wraps a call object in the response format.
func callResponse(call Value) string { return renderResponse("call it", call.String()) }

func withCall(ref *Ref, name string, args Value) Value {
	return objVal(member("name", strVal(name)), member("arguments", args))
}

// outside returns a value of v's kind that no accepted value accepts, judged
// independently of the matcher: by its standardized JSON text.
func outside(v Value, acc []Value) (Value, bool) {
	var cand Value
	switch v.Kind {
	case String:
		cand = strVal("zq not accepted " + v.Str)
	case Number:
		biggest := 0.0
		for _, a := range acc {
			if a.Kind == Number {
				biggest = max(biggest, abs(parseNum(a.Num)))
			}
		}
		cand = intVal(int(biggest) + 7)
		if !v.IsInt() {
			cand = numVal(cand.Num + ".5")
		}
	case Bool:
		cand = Value{Kind: Bool, Bool: !v.Bool}
	case Array:
		cand = Value{Kind: Array, Elems: append(slices.Clone(v.Elems), v.Elems...)}
		if len(v.Elems) == 0 {
			return Value{}, false
		}
	case Object:
		cand = objVal(append(slices.Clone(v.Members), member("zq_unknown_key", intVal(1)))...)
	default:
		return Value{}, false
	}
	for _, a := range acc {
		if standardize(a.String()) == standardize(cand.String()) || pyEqual(a, cand) {
			return Value{}, false
		}
	}
	return cand, true
}

func TestBFCL(t *testing.T) {
	prompts := bfclPrompts(t)
	if len(prompts) != 600 {
		t.Fatalf("%d BFCL prompts, want 600", len(prompts))
	}
	ctx := context.Background()
	var cv CallVerifier
	var fv FormatVerifier
	score := func(p task.Prompt, call Value) float64 {
		t.Helper()
		resp := callResponse(call)
		if v, err := fv.Verify(ctx, p, resp); err != nil || v.Score != 1 {
			t.Fatalf("%s: format verdict %+v, %v on %s", p.ID, v, err, resp)
		}
		v, err := cv.Verify(ctx, p, resp)
		if err != nil {
			t.Fatalf("%s: %v", p.ID, err)
		}
		return v.Score
	}
	counts := map[string][2]int{} // mutation: tried, scored 0
	count := func(kind string, s float64) {
		c := counts[kind]
		c[0]++
		if s == 0 {
			c[1]++
		}
		counts[kind] = c
	}
	for _, p := range prompts {
		ref := p.Ref.(*Ref)
		ref.call = "" // rebuild from the ground truth, not the cached text
		call, err := ParseJSON(ref.ReferenceCall())
		if err != nil {
			t.Fatalf("%s: reference call %s: %v", p.ID, ref.ReferenceCall(), err)
		}
		if s := score(p, call); s != 1 {
			v, _ := cv.Verify(ctx, p, callResponse(call))
			t.Errorf("%s: reference call %s scores %g: %s", p.ID, call, s, v.Reason)
			continue
		}
		count("reference", 0)
		args, _ := call.Get("arguments")
		fn := ref.function(ref.Answer.Function)

		// Wrong function: another offered one, or a made-up one.
		other := "made_up_" + fn.Name
		for _, f := range ref.Functions {
			if f.Name != fn.Name {
				other = f.Name
				break
			}
		}
		count("wrong function", score(p, withCall(ref, other, args)))

		// A required argument removed.
		if len(fn.Required) > 0 {
			drop := fn.Required[0]
			a := objVal(slices.DeleteFunc(slices.Clone(args.Members), func(m Member) bool { return m.Key == drop })...)
			count("required removed", score(p, withCall(ref, fn.Name, a)))
		}

		// A value outside the accepted list.
		for i, m := range args.Members {
			bad, ok := outside(m.Value, ref.accepted(m.Key))
			if !ok {
				continue
			}
			a := objVal(slices.Clone(args.Members)...)
			a.Members[i].Value = bad
			count("value outside", score(p, withCall(ref, fn.Name, a)))
			break
		}

		// An unknown extra argument.
		a := objVal(append(slices.Clone(args.Members), member("zq_extra", intVal(1)))...)
		count("extra argument", score(p, withCall(ref, fn.Name, a)))
	}
	for _, kind := range []string{"wrong function", "required removed", "value outside", "extra argument"} {
		c := counts[kind]
		t.Logf("%-16s %3d mutated calls, %3d scored 0", kind, c[0], c[1])
		if c[0] != c[1] {
			t.Errorf("%s: %d of %d mutated calls still score 1", kind, c[0]-c[1], c[0])
		}
	}
	t.Logf("reference calls scoring 1: %d of %d", counts["reference"][0], len(prompts))
	if counts["wrong function"][0] != 600 || counts["extra argument"][0] != 600 {
		t.Errorf("mutations missing: %v", counts)
	}
}

func abs(x float64) float64 { return max(x, -x) }

func parseNum(s string) float64 {
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

// TestBFCLVerdicts replays calls whose verdicts BFCL's own Python checker
// logic gave (testdata/bfcl_verdicts.jsonl: reference calls and their
// variants — other accepted values, case and punctuation changes, ints for
// floats, strings for numbers, dropped parameters, half lists, dicts with a
// key left out), and checks the call verifier agrees on each.
func TestBFCLVerdicts(t *testing.T) {
	prompts := map[string]task.Prompt{}
	for _, p := range bfclPrompts(t) {
		prompts[p.ID] = p
	}
	data, err := os.ReadFile("testdata/bfcl_verdicts.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var cv CallVerifier
	var n, ones int
	for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		rec, err := ParseJSON(line)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		id, _ := rec.Get("id")
		call, _ := rec.Get("call")
		want, _ := rec.Get("bfcl")
		p, ok := prompts[id.Str]
		if !ok {
			t.Fatalf("line %d: unknown id %s", i+1, id)
		}
		v, err := cv.Verify(context.Background(), p, callResponse(call))
		if err != nil {
			t.Fatal(err)
		}
		if got := strconv.FormatFloat(v.Score, 'g', -1, 64); got != want.Num {
			t.Errorf("%s: %s scores %s, BFCL says %s (%s)", id.Str, call, got, want.Num, v.Reason)
		}
		n++
		if want.Num == "1" {
			ones++
		}
	}
	t.Logf("%d calls agree with BFCL's checker (%d accepted, %d rejected)", n, ones, n-ones)
	if n < 300 || ones < 50 || n-ones < 50 {
		t.Errorf("fixture too small: %d calls, %d accepted", n, ones)
	}
}
