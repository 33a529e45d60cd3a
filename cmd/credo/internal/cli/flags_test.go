package cli

import (
	"bytes"
	"errors"
	"flag"
	"io"
	"strings"
	"testing"
)

// TestParseErrors: a bad command line is one UsageError naming the flag
// as typed, --help prints the flags on stdout, and a command of flags only
// refuses arguments.
func TestParseErrors(t *testing.T) {
	for args, want := range map[string]string{
		"--nope 1":       "unknown flag --nope",
		"--stpes 1":      "unknown flag --stpes: did you mean --steps?", // issue 49
		"--stepsize 1":   "unknown flag --stepsize",                     // no name stands out
		"-n x":           `--n: invalid value "x": parse error`,
		"--x":            "--x needs a value",
		"--x nan":        `--x: invalid value "nan": must be a finite number`,
		"--x -Inf":       `--x: invalid value "-Inf": must be a finite number`,
		"--x two":        `--x: invalid value "two": not a number`,
		"--b=maybe":      `--b: invalid value "maybe": parse error`,
		"--x 1 extra":    `unexpected arguments ["extra"]`,
		"--x 1 -- extra": `unexpected arguments ["extra"]`,
	} {
		var out bytes.Buffer
		f := New("try", "", &out, io.Discard)
		var x float64
		f.FloatVar(&x, "x", "", "")
		f.Int("n", 0, "")
		f.Bool("b", false, "")
		f.Int("steps", 0, "")
		err := f.Parse(strings.Fields(args))
		var ue UsageError
		if !errors.As(err, &ue) || err.Error() != want || out.Len() > 0 {
			t.Errorf("%q: %v (a usage error: %v), stdout %q; want %q", args, err, errors.As(err, &ue), out.String(), want)
		}
	}
	var out bytes.Buffer
	f := New("try", "Tries.", &out, io.Discard)
	if err := f.Parse([]string{"--help"}); !errors.Is(err, flag.ErrHelp) || !strings.HasPrefix(out.String(), "Usage: credo try [flags]\n\nTries.\n") {
		t.Errorf("--help: %v, stdout %q", err, out.String())
	}
	x := 1.0
	f = New("try", "", io.Discard, io.Discard)
	f.FloatVar(&x, "x", "x_key", "")
	if err := f.Parse([]string{"--x", " 2.5e-1 "}); err != nil || x != 0.25 || f.Keys()["x_key"] != "x" {
		t.Errorf("--x ' 2.5e-1 ': %v, x = %v, keys %v", err, x, f.Keys())
	}
}

// TestFlagMessage: each message of the flag package that names a flag
// with one dash is rewritten; others pass unchanged.
func TestFlagMessage(t *testing.T) {
	for in, want := range map[string]string{
		"flag provided but not defined: -stepz":                 "unknown flag --stepz",
		"flag provided but not defined: --stepz":                "unknown flag --stepz",
		`invalid value "x" for flag -steps: parse error`:        `--steps: invalid value "x": parse error`,
		`invalid boolean value "y" for -replace: parse error`:   `--replace: invalid value "y": parse error`,
		`invalid value "a=b" for flag -w: want name=weight, ok`: `--w: invalid value "a=b": want name=weight, ok`,
		"flag needs an argument: -lr":                           "--lr needs a value",
		"bad flag syntax: ---x":                                 "bad flag syntax: ---x",
	} {
		if got := flagMessage(in); got != want {
			t.Errorf("flagMessage(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestDeprecate: a former name sets its flag with a one-line notice, a
// former bool name takes no value, Given answers for the flag under either
// name, a former name of a flag the command lacks is left out, and --help
// lists the former names apart.
func TestDeprecate(t *testing.T) {
	var out, errw bytes.Buffer
	f := New("try", "", &out, &errw)
	n := f.Int("new", 0, "")
	b := f.Bool("on", false, "")
	f.Int("other", 0, "")
	f.Deprecate(map[string]string{"old": "new", "was-on": "on", "gone": "absent"})
	if err := f.Parse([]string{"--old", "3", "--was-on"}); err != nil || *n != 3 || !*b {
		t.Fatalf("--old 3 --was-on: %v, new %d, on %v", err, *n, *b)
	}
	if want := "credo try: --old is deprecated, use --new\ncredo try: --was-on is deprecated, use --on\n"; errw.String() != want {
		t.Errorf("notices %q, want %q", errw.String(), want)
	}
	if !f.Given("new") || !f.Given("on") || f.Given("other") || f.Lookup("gone") != nil {
		t.Errorf("given new %v, on %v, other %v; --gone defined %v", f.Given("new"), f.Given("on"), f.Given("other"), f.Lookup("gone") != nil)
	}
	f.Help(&out)
	if help := out.String(); !strings.HasSuffix(help, "\nDeprecated names, still accepted: --old (now --new), --was-on (now --on)\n") || strings.Contains(help, "  --old") {
		t.Errorf("help:\n%s", help)
	}
}

// TestHelp: the usage line, the synopsis, the groups in order (a flag
// once, a missing name skipped), the other flags, each with its kind, its
// help indented line by line and its default unless zero, a string's
// quoted (not one whose kind the help names in backquotes).
func TestHelp(t *testing.T) {
	var out bytes.Buffer
	f := New("try", "Tries things.", &out, io.Discard)
	f.UsageLine = "Usage: credo try [flags] DIR"
	lr, words := 0.5, []string{"a", "b"}
	f.FloatVar(&lr, "lr", "", "learning rate")
	f.String("name", "x", "a `label`\nover two lines")
	f.Int("steps", 0, "steps")
	f.ListVar(&words, "word", "a word (repeatable)")
	f.Bool("fast", false, "go fast")
	f.Group("First", "steps", "lr", "missing")
	f.Group("Again", "lr", "name")
	f.Help(&out)
	want := `Usage: credo try [flags] DIR

Tries things.

First:
  --steps int
    	steps
  --lr float
    	learning rate (default 0.5)

Again:
  --name label
    	a label
    	over two lines (default x)

Other flags:
  --fast
    	go fast
  --word string
    	a word (repeatable) (default "a b")
`
	if out.String() != want {
		t.Errorf("help:\n%s\nwant:\n%s", out.String(), want)
	}
	out.Reset()
	New("bare", "Bare.", io.Discard, io.Discard).Help(&out)
	if out.String() != "Usage: credo bare [flags]\n\nBare.\n" {
		t.Errorf("help of no flags: %q", out.String())
	}
}

// TestParsePositional: flags before, between and after the arguments are
// parsed; after "--" everything is an argument; errors are Parse's.
func TestParsePositional(t *testing.T) {
	f := New("try", "", io.Discard, io.Discard)
	n := f.Int("n", 0, "")
	pos, err := f.ParsePositional(strings.Fields("a --n 1 b -- --n c"))
	if err != nil || strings.Join(pos, " ") != "a b --n c" || *n != 1 {
		t.Errorf("positional %q, n %d, %v", pos, *n, err)
	}
	if _, err := f.ParsePositional([]string{"a", "--m"}); !errors.As(err, new(UsageError)) || err.Error() != "unknown flag --m" {
		t.Errorf("unknown flag after an argument: %v", err)
	}
}
