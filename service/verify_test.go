package service

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/credo-rl/credo/internal/shareddata"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/ifeval"
	"github.com/credo-rl/credo/task/sql"
	"github.com/credo-rl/credo/task/toolcall"
)

// lines reads a JSON Lines file of the shared data.
func lines(t *testing.T, rel string) []string {
	t.Helper()
	f, err := os.Open(shareddata.Path(t, rel))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) != "" {
			out = append(out, sc.Text())
		}
	}
	return out
}

// verdictOf reads a verdict of the service's answer back into credo's type.
func verdictOf(t *testing.T, v any) (reward.Verdict, string) {
	t.Helper()
	m := v.(map[string]any)
	out := reward.Verdict{Score: num(t, m["score"]), Info: m["info"].(string), Reason: m["reason"].(string), Skip: m["skip"].(bool)}
	for _, s := range m["spans"].([]any) {
		sm := s.(map[string]any)
		sp := reward.Span{Start: int(num(t, sm["start"])), End: int(num(t, sm["end"]))}
		if x, ok := sm["strength"]; ok {
			sp.Strength = num(t, x)
		}
		switch sm["effect"] {
		case "+":
			sp.Effect = reward.Raised
		case "-":
			sp.Effect = reward.Lowered
		}
		out.Spans = append(out.Spans, sp)
	}
	failure, _ := m["error"].(string)
	return out, failure
}

// checkVerdicts posts a verify request and compares every verdict with
// what want(item, response, reward name) gives in process.
func checkVerdicts(t *testing.T, hs *httptest.Server, body map[string]any, want func(j, g int, name string) reward.Verdict) int {
	t.Helper()
	status, got := post(t, hs, "/v1/verify", body)
	if status != 200 {
		t.Fatalf("%d %v", status, got["error"])
	}
	var names []string
	for _, n := range got["rewards"].([]any) {
		names = append(names, n.(string))
	}
	n := 0
	for j, it := range got["items"].([]any) {
		for g, r := range it.(map[string]any)["responses"].([]any) {
			vs := r.(map[string]any)["verdicts"].([]any)
			if len(vs) != len(names) {
				t.Fatalf("item %d response %d: %d verdicts for %d rewards", j, g, len(vs), len(names))
			}
			for k, v := range vs {
				gotV, failure := verdictOf(t, v)
				if w := want(j, g, names[k]); !reflect.DeepEqual(gotV, normal(w)) || failure != "" {
					t.Fatalf("item %d response %d %s: service %+v (%s), Go %+v", j, g, names[k], gotV, failure, w)
				}
				n++
			}
		}
	}
	return n
}

// normal is a verdict as it comes back from JSON: no spans is nil.
func normal(v reward.Verdict) reward.Verdict {
	if len(v.Spans) == 0 {
		v.Spans = nil
	}
	return v
}

// Every IFEval record of the shared data, with responses that pass and
// fail its checks, gets over HTTP exactly the verdicts Go's verifiers
// give (all 25 instruction ids, skips included).
func TestVerifyIFEvalRecords(t *testing.T) {
	recs := lines(t, "ifeval/input_data.jsonl")
	_, hs := newServer(t, Options{})
	responses := func(prompt string) []string {
		return []string{prompt, "THIS IS ALL CAPS, WITH A COMMA.", "lower case only. no commas here",
			"<<A Title>>\n\nSECTION 1\n* one\n* two\n\n***\n\nSECTION 2\nÜber café 数 🙂. P.S. done",
			`{"answer": "json", "n": [1, 2]}`, "\"Quoted, and it ends with Is there anything else I can help with?\"", ""}
	}
	var items []any
	var prompts []reward.Prompt
	for _, line := range recs {
		var raw map[string]any
		json.Unmarshal([]byte(line), &raw)
		rs, err := ifeval.ReadRecords(strings.NewReader(line))
		if err != nil {
			t.Fatal(err)
		}
		p, _, err := ifeval.FromRecord(rs[0])
		if err != nil {
			t.Fatal(err)
		}
		prompts = append(prompts, p)
		items = append(items, map[string]any{"record": raw, "responses": responses(p.Text)})
	}
	n := checkVerdicts(t, hs, map[string]any{"format": "ifeval", "items": items}, func(j, g int, name string) reward.Verdict {
		v, err := ifeval.NewVerifier(name).Verify(context.Background(), prompts[j], responses(prompts[j].Text)[g])
		if err != nil {
			t.Fatal(err)
		}
		return v
	})
	if n != len(recs)*7*25 {
		t.Errorf("%d verdicts, want %d", n, len(recs)*7*25)
	}
	t.Logf("%d IFEval verdicts on %d records equal Go's", n, len(recs))
}

// Every BFCL case of the shared data, with its reference call and broken
// ones, gets the verdicts of Go's format and call verifiers.
func TestVerifyBFCLCases(t *testing.T) {
	_, hs := newServer(t, Options{})
	var items []any
	var prompts []task.Prompt
	var resps [][]string
	for _, name := range []string{"BFCL_v4_simple_python.json", "BFCL_v4_multiple.json"} {
		qs, as := lines(t, "bfcl/"+name), lines(t, "bfcl/possible_answer/"+name)
		for i := range qs {
			p, err := toolcall.ParseBFCL(qs[i], as[i])
			if err != nil {
				t.Fatal(err)
			}
			// The record as the client sends it, numbers as written (1.0
			// stays a float: BFCL's type rules tell it from 1).
			var ans map[string]json.RawMessage
			json.Unmarshal([]byte(as[i]), &ans)
			rec := json.RawMessage(strings.TrimSuffix(strings.TrimSpace(qs[i]), "}") + `, "ground_truth": ` + string(ans["ground_truth"]) + "}")
			call := p.Ref.(*toolcall.Ref).ReferenceCall()
			rs := []string{
				"<think>call it</think><tool_call>" + call + "</tool_call>",
				"<tool_call>" + call + "</tool_call>",
				"<think>x</think><tool_call>" + strings.Replace(call, `"arguments":{`, `"arguments":{"zz_extra":1,`, 1) + "</tool_call>",
				"<think>x</think><tool_call>{\"name\": \"nope\", \"arguments\": {}}</tool_call>",
				"no call at all",
			}
			prompts, resps = append(prompts, p), append(resps, rs)
			items = append(items, map[string]any{"record": rec, "responses": rs})
		}
	}
	vs := map[string]reward.Verifier{"format": toolcall.FormatVerifier{}, "call": toolcall.CallVerifier{}}
	n := checkVerdicts(t, hs, map[string]any{"format": "bfcl", "items": items}, func(j, g int, name string) reward.Verdict {
		v, err := vs[name].Verify(context.Background(), prompts[j], resps[j][g])
		if err != nil {
			t.Fatal(err)
		}
		return v
	})
	if n != 600*5*2 {
		t.Errorf("%d verdicts", n)
	}
	t.Logf("%d BFCL verdicts on 600 cases equal Go's", n)
}

// Generated prompts by id, GSM8K records and sql records over a folder
// get their tasks' verdicts; a judge follows the format's rewards.
func TestVerifyTasksAndRecords(t *testing.T) {
	dir := t.TempDir()
	st, err := sql.Open(task.Config{Seed: 2, Dir: dir}, sql.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	folder, err := sql.OpenFolder(dir, sql.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer folder.Close()
	_, hs := newServer(t, Options{Records: []task.RecordReader{folder}})
	for _, name := range []string{"slots", "arith", "toolcall", "ifeval", "sql"} {
		tk, err := task.New(name, task.Config{Seed: 4})
		if err != nil {
			t.Fatal(err)
		}
		var items []any
		var ps []task.Prompt
		for i := range 12 {
			p := tk.Prompt(task.Split(i%2), i)
			ref := reference(tk, p)
			ps = append(ps, p)
			items = append(items, map[string]any{"prompt_id": p.ID, "responses": []string{ref, "1+1=2\nanswer: 2", ""}})
		}
		body := map[string]any{"format": "task", "task": name, "seed": 4, "rewards": verifierNames(tk.Rewards()), "items": items}
		checkVerdicts(t, hs, body, func(j, g int, rn string) reward.Verdict {
			for _, v := range tk.Rewards() {
				if v.Name() == rn {
					ref := reference(tk, ps[j])
					vd, err := v.Verify(context.Background(), ps[j], []string{ref, "1+1=2\nanswer: 2", ""}[g])
					if err != nil {
						t.Fatal(err)
					}
					return vd
				}
			}
			t.Fatalf("no reward %s", rn)
			return reward.Verdict{}
		})
		closeTask(tk)
	}
	// sql records over the folder: the same verdicts as the task's own.
	var items []any
	var ps []task.Prompt
	for i := range 10 {
		p := st.Prompt(task.Train, i)
		ps = append(ps, p)
		items = append(items, map[string]any{"record": map[string]any{"db_id": "sql-2", "query": p.Ref.(sql.Ref).Query, "question": "q"},
			"responses": []string{"<think>x</think><answer>" + p.Ref.(sql.Ref).Query + "</answer>", "<think>x</think><answer>SELECT nme FROM t</answer>"}})
	}
	checkVerdicts(t, hs, map[string]any{"format": "sql", "items": items}, func(j, g int, rn string) reward.Verdict {
		for _, v := range st.Rewards() {
			if v.Name() == rn {
				r := items[j].(map[string]any)["responses"].([]string)[g]
				vd, _ := v.Verify(context.Background(), ps[j], r)
				return vd
			}
		}
		return reward.Verdict{}
	})
	// GSM8K: the worked solution scores 1; format is skipped for every
	// record, so by default it is not among the rewards.
	recs := lines(t, "gsm8k/test.jsonl")[:50]
	items = nil
	for _, line := range recs {
		var raw map[string]string
		json.Unmarshal([]byte(line), &raw)
		items = append(items, map[string]any{"record": raw, "responses": []string{raw["answer"], "answer: 0"}})
	}
	status, got := post(t, hs, "/v1/verify", map[string]any{"format": "gsm8k", "items": items})
	if status != 200 || fmt.Sprint(got["rewards"]) != "[answer]" {
		t.Fatalf("gsm8k: %d rewards %v", status, got["rewards"])
	}
	for j, it := range got["items"].([]any) {
		rs := it.(map[string]any)["responses"].([]any)
		a, _ := verdictOf(t, rs[0].(map[string]any)["verdicts"].([]any)[0])
		b, _ := verdictOf(t, rs[1].(map[string]any)["verdicts"].([]any)[0])
		if a.Score != 1 || b.Score != 0 {
			t.Fatalf("gsm8k record %d: %+v %+v", j, a, b)
		}
	}
}

// reference is a task's correct response where it can write one.
func reference(tk task.Task, p task.Prompt) string {
	if r, ok := tk.(task.Referencer); ok {
		ref, _ := r.Reference(p)
		return ref
	}
	return "8\n7\n3"
}
