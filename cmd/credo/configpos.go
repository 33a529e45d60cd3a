package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
)

// configPosition adds where in data (a config file's bytes) err, a JSON
// or YAML decoding error, happened: JSON's errors give a byte offset,
// which becomes "line L, column C" (issue 49: `invalid character 'h' in
// literal true` said neither); yaml.v3 counts the lines of its parser's
// errors from 0 (its scanner's from 1), so "line 1" named a fault on line
// 2, and those are moved to count from 1. Other errors pass unchanged.
func configPosition(err error, data []byte) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var off int64 = -1
	switch {
	case errors.As(err, &syn):
		off = syn.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	}
	switch {
	case off >= 0:
		line, col := lineColumn(data, off)
		return fmt.Errorf("%w (line %d, column %d)", err, line, col)
	case err == nil:
		return nil
	case errors.Is(err, io.ErrUnexpectedEOF):
		return fmt.Errorf("%w (the file ends inside a value, at line %d)", err, 1+bytes.Count(data, []byte("\n")))
	}
	msg := err.Error()
	fixed := yamlParserLine.ReplaceAllStringFunc(msg, func(m string) string {
		sub := yamlParserLine.FindStringSubmatch(m)
		n, _ := strconv.Atoi(sub[1])
		return "yaml: line " + strconv.Itoa(n+1) + ": " + sub[2]
	})
	if fixed == msg {
		return err
	}
	return relined{msg: fixed, err: err}
}

// yamlParserLine matches yaml.v3's parser errors (parserc.go), whose line
// is counted from 0; its scanner's errors count from 1 and do not match.
var yamlParserLine = regexp.MustCompile(`yaml: line (\d+): (did not find expected|found duplicate %|found incompatible YAML|found undefined tag)`)

// relined is a YAML error with its line counted from 1.
type relined struct {
	msg string
	err error
}

func (e relined) Error() string { return e.msg }
func (e relined) Unwrap() error { return e.err }

// lineColumn is the 1-based line and column (in bytes) of the byte at off
// in data; JSON's offset is just past the byte that failed, or the end.
func lineColumn(data []byte, off int64) (line, col int) {
	if len(data) == 0 {
		return 1, 1
	}
	off = min(max(off, 1), int64(len(data)))
	before := data[:off-1]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1)
	return line, col
}
