package arith

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestParseStep(t *testing.T) {
	tests := []struct {
		line   string
		want   Eq
		equals int
		c      string // the text of c's range
		err    error
	}{
		{line: "17 + 25 = 42", want: Eq{17, 25, 42, '+'}, equals: 8, c: "42"},
		{line: "17+25=42", want: Eq{17, 25, 42, '+'}, equals: 5, c: "42"},
		{line: " \t-3 * -4 = 12 \r", want: Eq{-3, -4, 12, '*'}, equals: 10, c: "12"},
		{line: "5 - -3 = 8", want: Eq{5, -3, 8, '-'}, equals: 7, c: "8"},
		{line: "5--3=-8", want: Eq{5, -3, -8, '-'}, equals: 4, c: "-8"},
		{line: "0 * 999999999999999999 = 0", want: Eq{0, 999999999999999999, 0, '*'}, equals: 23, c: "0"},
		{line: "", err: ErrNumber},
		{line: "17 plus 25 equals 42", err: ErrOperator},
		{line: "17 / 25 = 1", err: ErrOperator},
		{line: "17 + = 42", err: ErrNumber},
		{line: "17 + 25 42", err: ErrEquals},
		{line: "17 + 25 == 42", err: ErrNumber},
		{line: "17 + 25 = ", err: ErrNumber},
		{line: "17 + 25 = 42 apples", err: ErrTrailing},
		{line: "17 + 25 = 42\n", err: ErrTrailing},
		{line: "1234567890123456789 + 1 = 2", err: ErrTooLong},
		{line: "\xff + 1 = 2", err: ErrNumber},
		{line: "1 + 1 = 2\xff", err: ErrTrailing},
		{line: "answer: 42", err: ErrNumber},
		{line: "- 1 + 1 = 0", err: ErrNumber},
	}
	for _, tt := range tests {
		got, err := ParseStep(tt.line)
		if !errors.Is(err, tt.err) {
			t.Errorf("ParseStep(%q) error = %v, want %v", tt.line, err, tt.err)
			continue
		}
		if err != nil {
			continue
		}
		if got.Eq != tt.want || got.Equals != tt.equals || tt.line[got.CStart:got.CEnd] != tt.c {
			t.Errorf("ParseStep(%q) = %+v (c %q), want %+v at %d, c %q", tt.line, got, tt.line[got.CStart:got.CEnd], tt.want, tt.equals, tt.c)
		}
	}
}

func TestEqHolds(t *testing.T) {
	tests := []struct {
		e    Eq
		want bool
	}{
		{Eq{17, 25, 42, '+'}, true},
		{Eq{17, 25, 43, '+'}, false},
		{Eq{5, 8, -3, '-'}, true},
		{Eq{12, 11, 132, '*'}, true},
		{Eq{12, 11, 131, '*'}, false},
		{Eq{3, 4, 0, '/'}, false},
		{Eq{math.MaxInt64, 1, math.MinInt64, '+'}, false}, // wraps: must not hold
		{Eq{math.MinInt64, 1, math.MaxInt64, '-'}, false},
		{Eq{math.MinInt64, -1, math.MinInt64, '*'}, false},
		{Eq{-1, math.MinInt64, math.MinInt64, '*'}, false},
		{Eq{math.MaxInt64, 2, -2, '*'}, false},
		{Eq{math.MaxInt64, 0, 0, '*'}, true},
		{Eq{math.MinInt64, 0, math.MinInt64, '+'}, true},
	}
	for _, tt := range tests {
		if got := tt.e.Holds(); got != tt.want {
			t.Errorf("%v Holds = %v, want %v", tt.e, got, tt.want)
		}
	}
	if s := (Eq{-3, 4, -12, '*'}).String(); s != "-3 * 4 = -12" {
		t.Errorf("String = %q", s)
	}
}

func TestParseNumber(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"18", "18", true},
		{" 1,000 ", "1000", true},
		{"1,450,000", "1450000", true},
		{"-3", "-3", true},
		{"-0", "0", true},
		{"-0.00", "0", true},
		{"007", "7", true},
		{"2.50", "2.5", true},
		{"2.0", "2", true},
		{".5", "0.5", true},
		{"$18", "18", true},
		{"-$18", "-18", true},
		{"118.", "118", true},
		{"", "", false},
		{"abc", "", false},
		{"1.2.3", "", false},
		{"--1", "", false},
		{"1e5", "", false},
		{"1,000,", "", false},
		{",100", "", false},
		{"1..", "", false},
		{"1 000", "", false},
		{"\xff1", "", false},
		{strings.Repeat("9", 65), "", false},
		{strings.Repeat("9", 64), strings.Repeat("9", 64), true},
	}
	for _, tt := range tests {
		got, ok := ParseNumber(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseNumber(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestLastAnswerLine(t *testing.T) {
	tests := []struct {
		in        string
		line, num string
		ok        bool
	}{
		{in: "1 + 1 = 2\nanswer: 2", line: "answer: 2", num: "2", ok: true},
		{in: "answer: 1\nanswer: 2\nDone.", line: "answer: 2", num: "2", ok: true},
		{in: "  Answer:   3 apples  \r\n", line: "Answer:   3 apples", num: "3", ok: true},
		{in: "#### 1,000", line: "#### 1,000", num: "1,000", ok: true},
		{in: "answer:", line: "answer:", num: "", ok: true},
		{in: "the answer: 5", ok: false},
		{in: "", ok: false},
		{in: "\n\n", ok: false},
	}
	for _, tt := range tests {
		line, num, ok := lastAnswerLine(tt.in)
		if ok != tt.ok {
			t.Errorf("lastAnswerLine(%q) ok = %v", tt.in, ok)
			continue
		}
		if ok && (tt.in[line[0]:line[1]] != tt.line || tt.in[num[0]:num[1]] != tt.num) {
			t.Errorf("lastAnswerLine(%q) = %q, %q; want %q, %q", tt.in, tt.in[line[0]:line[1]], tt.in[num[0]:num[1]], tt.line, tt.num)
		}
	}
}
