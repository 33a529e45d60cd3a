package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/credo-rl/credo/internal/settings"
)

// span is a flag.Value setting type of the caller's own, as rl.Duration.
type span time.Duration

func (s *span) String() string { return time.Duration(*s).String() }
func (s *span) Set(v string) error {
	d, err := time.ParseDuration(v)
	*s = span(d)
	return err
}

type mode string

type inner struct {
	Beta  float64  `json:"beta"`
	Words []string `json:"words"`
}

// Common is embedded, its fields config's own, as optim.Memory's are in
// credo's configs.
type Common struct {
	Seed uint64 `json:"seed"`
}

type config struct {
	Common
	Name    string             `json:"name"`
	Steps   int                `json:"steps"`
	On      bool               `json:"on"`
	Wait    time.Duration      `json:"wait"`
	Limit   span               `json:"limit"`
	Mode    mode               `json:"mode"`
	Weights map[string]float64 `json:"weights"`
	Inner   inner              `json:"inner"`
	OutDir  string             `json:"-"`
	Plain   int
	hidden  int
}

// table is config's settings, as a command's table would be.
func table() []Setting {
	ss := []Setting{
		{"seed", "seed", "seed"}, {"name", "name", "name"}, {"steps", "steps", "steps"}, {"on", "on", "on"},
		{"wait", "wait", "wait"}, {"limit", "limit", "limit"}, {"mode", "mode", "mode"},
		{"weights", "weight", "weights"}, {"out_dir", "out", "out"}, {"Plain", "plain", "plain"},
	}
	return append(ss, Under("inner.", []Setting{{"beta", "beta", "beta"}, {"words", "word", "word"}})...)
}

// TestBind: every setting type gets its flag, kind and default from the
// field, parses into it, and records its key under the prefix.
func TestBind(t *testing.T) {
	c := config{Name: "n", Steps: 2, Inner: inner{Beta: 0.5, Words: []string{"from", "file"}}, Weights: map[string]float64{"a": 1}}
	var out bytes.Buffer
	f := New("try", "", &out, io.Discard)
	f.Kind(reflect.TypeFor[span](), "duration")
	f.Bind(&c, "top.", table()...)
	args := strings.Fields("--seed 7 --name m --steps 3 --on --wait 2s --limit 3s --mode fast --weight b=2 --weight a=0.5 " +
		"--out o --plain 4 --beta 0.25 --word x --word y")
	if err := f.Parse(args); err != nil {
		t.Fatal(err)
	}
	want := config{Common: Common{7}, Name: "m", Steps: 3, On: true, Wait: 2 * time.Second, Limit: span(3 * time.Second), Mode: "fast",
		Weights: map[string]float64{"a": 0.5, "b": 2}, Inner: inner{Beta: 0.25, Words: []string{"x", "y"}}, OutDir: "o", Plain: 4}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("bound\n%+v\nwant\n%+v", c, want)
	}
	keys := slices.Sorted(maps.Keys(f.Keys()))
	if want := "top.Plain top.inner.beta top.inner.words top.limit top.mode top.name top.on top.out_dir top.seed top.steps top.wait top.weights"; strings.Join(keys, " ") != want {
		t.Errorf("keys %q, want %q", keys, want)
	}
	f.Help(&out)
	for _, line := range []string{"--limit duration", "--wait duration", "--beta float", "--weight name=value", "--word string", "--mode string", "--seed uint", "--steps int"} {
		if !strings.Contains(out.String(), "\n  "+line+"\n") {
			t.Errorf("help has no %q:\n%s", line, out.String())
		}
	}
	if !strings.Contains(out.String(), `(default "from file")`) || !strings.Contains(out.String(), "(default a=1)") {
		t.Errorf("help lacks the defaults of --word or --weight:\n%s", out.String())
	}
	if err := f.Parse([]string{"--weight", "c"}); err == nil || !strings.Contains(err.Error(), `want name=weight, got "c"`) {
		t.Errorf("--weight c: %v", err)
	}
	if err := f.Parse([]string{"--weight", "c=NaN"}); err == nil || !strings.Contains(err.Error(), "weight of c: must be a finite number") {
		t.Errorf("--weight c=NaN: %v", err)
	}
}

// TestBindPanics: a table's mistakes are found the first time it is bound.
func TestBindPanics(t *testing.T) {
	for _, tc := range []struct {
		cfg  any
		s    Setting
		want string
	}{
		{&config{}, Setting{"stepz", "steps", ""}, `setting stepz: cli.config has no field keyed "stepz"`},
		{&config{}, Setting{"inner.gamma", "gamma", ""}, `setting inner.gamma: cli.inner has no field keyed "gamma"`},
		{config{}, Setting{"steps", "steps", ""}, "setting steps: cli.config is not a pointer to a config struct"},
		{&struct{ F float32 }{}, Setting{"F", "f", ""}, "flag --f: no flag type for a setting of type float32"},
	} {
		func() {
			defer func() {
				if got := fmt.Sprint(recover()); got != tc.want {
					t.Errorf("%+v: panic %q, want %q", tc.s, got, tc.want)
				}
			}()
			New("try", "", io.Discard, io.Discard).Bind(tc.cfg, "", tc.s)
		}()
	}
}

// TestSettingKeys: the leaves of a config type by their keys, embedded
// structs' fields as their parent's, unexported fields left out.
func TestSettingKeys(t *testing.T) {
	got := SettingKeys(reflect.TypeFor[config](), "")
	want := []string{"seed", "name", "steps", "on", "wait", "limit", "mode", "weights", "inner.beta", "inner.words", "out_dir", "Plain"}
	if !slices.Equal(got, want) {
		t.Errorf("keys %q, want %q", got, want)
	}
	for in, want := range map[string]string{"MaxTokens": "max_tokens", "PRM": "prm", "PRMDir": "prm_dir", "Out": "out", "TopP": "top_p", "a": "a"} {
		if got := snake(in); got != want {
			t.Errorf("snake(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestTables: Pick, Described, Under and NoFlag.Covers, which build one
// command's flags from another's table.
func TestTables(t *testing.T) {
	ss := []Setting{{"a", "a", "A"}, {"b", "b", "B"}, {"c", "c", "C"}}
	got := Under("x.", Described("w: ", Pick(ss, map[string]string{"c": "cc"}, "c", "a")))
	if want := []Setting{{"x.c", "cc", "w: C"}, {"x.a", "a", "w: A"}}; !slices.Equal(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	func() {
		defer func() {
			if r := recover(); fmt.Sprint(r) != "pick: no setting d" {
				t.Errorf("Pick of a missing key: %v", r)
			}
		}()
		Pick(ss, nil, "d")
	}()
	n := NoFlag{"eval": "why", "x.y": "because"}
	for key, want := range map[string]string{"eval": "why", "eval.seed": "why", "x.y.z": "because", "x": "", "evaluate": ""} {
		if why, ok := n.Covers(key); why != want || ok != (want != "") {
			t.Errorf("Covers(%q) = %q, %v", key, why, ok)
		}
	}
}

// TestExplain: a configuration's problems are named by the flags that set
// them (a key's parent's flag for a map entry, the key itself without a
// flag), one per line, sorted; other errors pass unchanged.
func TestExplain(t *testing.T) {
	f := New("try", "", io.Discard, io.Discard)
	c := config{}
	f.Bind(&c, "", table()...)
	var ps settings.Problems
	ps.Add("steps", "must be positive")
	ps.Add("weights.a", "must be finite")
	ps.Add("inner.beta", "too large")
	ps.Add("hidden", "odd")
	err := f.Explain(fmt.Errorf("wrapped: %w", &settings.Error{Err: ps}))
	want := "--beta: too large\n--steps: must be positive\n--weight: must be finite\nhidden: odd"
	if !errors.As(err, new(UsageError)) || err.Error() != want {
		t.Errorf("Explain: %v, want a usage error %q", err, want)
	}
	if err := f.Explain(settings.Errorf("unknown method %q", "ppo")); !errors.As(err, new(UsageError)) || err.Error() != `unknown method "ppo"` {
		t.Errorf("Explain of a settings error without problems: %v", err)
	}
	other := errors.New("disk full")
	if err := f.Explain(other); err != other || f.Explain(nil) != nil {
		t.Errorf("Explain changed an error of another kind: %v", err)
	}
	if got := f.FlagFor("inner.beta") + " " + f.FlagFor("nothing.here"); got != "--beta nothing.here" {
		t.Errorf("FlagFor: %q", got)
	}
}
