package main

import (
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/credo-rl/credo/cmd/credo/internal/cli"
	"github.com/credo-rl/credo/internal/settings"
	"github.com/credo-rl/credo/rl"
)

// newFlags is a command's flag set (cli.New) that knows credo's own flag
// types: a bound rl.Duration is a duration in --help.
func newFlags(cmd, synopsis string, stdout, stderr io.Writer) *cli.Flags {
	fs := cli.New(cmd, synopsis, stdout, stderr)
	fs.Kind(reflect.TypeFor[rl.Duration](), "duration")
	return fs
}

// explain is fs.Explain, which names a configuration's problems by flag,
// and names so a refused resume's settings and those a resume may change
// (rl.ResumeConflict).
func explain(fs *cli.Flags, err error) error {
	var ce *settings.Error
	var rc *rl.ResumeConflict
	if !errors.As(err, &ce) || !errors.As(err, &rc) {
		return fs.Explain(err)
	}
	may := make([]string, 0, len(rc.MayChange))
	for _, k := range rc.MayChange {
		may = append(may, fs.FlagFor(k))
	}
	return usageError{Err: fmt.Errorf("%s\n(a resumed run keeps the settings it was started with: leave those flags out; only %s may change)",
		fs.Problems(rc.Problems), strings.Join(may, ", "))}
}
