package toolcall

import (
	"strings"
	"testing"

	"github.com/credo-rl/credo/task"
	"github.com/credo-rl/credo/task/recordtest"
)

// record merges a BFCL question line with its possible answer's ground truth.
func record(t testing.TB, question, answer string) string {
	a, err := ParseJSON(answer)
	if err != nil {
		t.Fatal(err)
	}
	gt, _ := a.Get("ground_truth")
	return strings.TrimSuffix(strings.TrimSpace(question), "}") + `, "ground_truth": ` + gt.String() + "}"
}

// Every BFCL case read as one record gives the prompt ParseBFCL gives of
// its two lines, and the same verdicts on its reference call.
func TestTaskFromRecord(t *testing.T) {
	tk, _ := New(task.Config{})
	rr := tk.(task.RecordReader)
	if got := len(rr.RecordRewards()); got != 2 {
		t.Fatalf("%d record rewards", got)
	}
	n := 0
	for _, name := range []string{"BFCL_v4_simple_python.json", "BFCL_v4_multiple.json"} {
		qs := readLines(t, "bfcl/"+name)
		as := readLines(t, "bfcl/possible_answer/"+name)
		for i := range qs {
			want, err := ParseBFCL(qs[i], as[i])
			if err != nil {
				t.Fatal(err)
			}
			got, err := rr.FromRecord([]byte(record(t, qs[i], as[i])))
			if err != nil {
				t.Fatalf("%s line %d: %v", name, i+1, err)
			}
			if got.ID != want.ID || got.Text != want.Text {
				t.Fatalf("%s line %d: prompt %q %q, want %q %q", name, i+1, got.ID, got.Text, want.ID, want.Text)
			}
			resp := renderResponse("plan", want.Ref.(*Ref).ReferenceCall())
			for _, v := range recordtest.SameVerdicts(t, rr.RecordRewards(), got, want, resp) {
				if v.Score != 1 {
					t.Fatalf("%s: the reference call scores %+v", want.ID, v)
				}
			}
			n++
		}
	}
	if n != 600 {
		t.Errorf("%d cases, want 600", n)
	}
}

func TestTaskFromRecordErrors(t *testing.T) {
	rr := recordReader()
	recordtest.Refuses(t, rr,
		`{}`, `[1]`, `{"function": []}`, `{"ground_truth": []}`,
		`{"id": 3, "function": [], "ground_truth": [{"f": {}}]}`,
		`{"function": [{"name": "f"}], "ground_truth": [{"g": {}}]}`,
		`{"function": [{"name": "f"}], "ground_truth": [{"f": {"x": 1}}]}`,
		`{"function": [{"name": "f"}], "ground_truth": [{"f": {}}]`)
	p, err := rr.FromRecord([]byte(`{"function": [{"name": "f", "parameters": {"type": "dict", "properties": {"x": {"type": "integer"}}, "required": ["x"]}}], "ground_truth": [{"f": {"x": [1]}}], "other": true}`))
	if err != nil || p.ID != "" {
		t.Fatalf("prompt %+v, %v", p, err)
	}
}

func FuzzTaskFromRecord(f *testing.F) {
	f.Add([]byte(`{"id": "simple_python_0", "question": [[{"role": "user", "content": "Find the area."}]], "function": [{"name": "calculate_triangle_area", "description": "d", "parameters": {"type": "dict", "properties": {"base": {"type": "integer"}, "unit": {"type": "string"}}, "required": ["base"]}}], "ground_truth": [{"calculate_triangle_area": {"base": [10], "unit": ["units", ""]}}]}`))
	f.Add([]byte(`{"function": [{"name": "f", "parameters": {"properties": {"xs": {"type": "array", "items": {"type": "float"}}}}}], "ground_truth": [{"f": {"xs": [[1.5, 2]]}}]}`))
	tk, _ := New(task.Config{})
	recordtest.Fuzz(f, tk.(task.RecordReader), func(p task.Prompt) string { return renderResponse("x", p.Ref.(*Ref).ReferenceCall()) }, nil)
}

// recordReader is the task with its defaults, as a record reader.
func recordReader() task.RecordReader {
	tk, _ := New(task.Config{})
	return tk.(task.RecordReader)
}

// A public record's call is judged by BFCL's rules: a perfect <tool_call>
// scores 1 on call with or without a thought around it, while format,
// credo's layout, still wants <think>…</think><tool_call>…</tool_call>.
func TestRecordCallWithoutThink(t *testing.T) {
	rr := recordReader()
	p, err := rr.FromRecord([]byte(`{"id": "r", "function": [{"name": "area", "parameters": {"type": "dict", "properties": {"base": {"type": "integer"}}, "required": ["base"]}}], "ground_truth": [{"area": {"base": [10]}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	good := `{"name": "area", "arguments": {"base": 10}}`
	cases := []struct {
		name, resp   string
		format, call float64
		reason       string // a part of call's reason when it scores 0
	}{
		{"credo's layout", "<think>x</think><tool_call>" + good + "</tool_call>", 1, 1, ""},
		{"no think", "<tool_call>" + good + "</tool_call>", 0, 1, ""},
		{"prose around", "Sure.\n<tool_call>" + good + "</tool_call>\nDone.", 0, 1, ""},
		{"think after", "<tool_call>" + good + "</tool_call><think>x</think>", 0, 1, ""},
		{"wrong value", `<tool_call>{"name": "area", "arguments": {"base": 9}}</tool_call>`, 0, 0, "base"},
		{"no tool_call", good, 0, 0, "no <tool_call>"},
		{"unclosed", "<tool_call>" + good, 0, 0, "missing </tool_call>"},
		{"two calls", "<tool_call>" + good + "</tool_call><tool_call>" + good + "</tool_call>", 0, 0, "more than one"},
		{"broken JSON", `<tool_call>{"name": "area", </tool_call>`, 0, 0, "tool_call JSON"},
	}
	vs := rr.RecordRewards()
	for _, c := range cases {
		f, err := vs[0].Verify(t.Context(), p, c.resp)
		if err != nil {
			t.Fatal(err)
		}
		v, err := vs[1].Verify(t.Context(), p, c.resp)
		if err != nil {
			t.Fatal(err)
		}
		if f.Score != c.format || v.Score != c.call || (c.call == 0 && !strings.Contains(v.Reason, c.reason)) {
			t.Errorf("%s: format %v call %v (%q), want %v %v (%q)", c.name, f.Score, v.Score, v.Reason, c.format, c.call, c.reason)
		}
		checkSpans(t, c.resp, v.Spans)
	}
	// credo's own prompts keep their layout: without <think> the call is
	// not read, and call carries format's fault.
	own := p
	ref := *p.Ref.(*Ref)
	ref.public = false
	own.Ref = &ref
	v, err := vs[1].Verify(t.Context(), own, "<tool_call>"+good+"</tool_call>")
	if err != nil || v.Score != 0 || !strings.Contains(v.Reason, "format: missing <think>") {
		t.Errorf("a task prompt's call without <think>: %+v, %v", v, err)
	}
}
