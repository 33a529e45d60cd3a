package ckpt

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/credo-rl/credo/internal/atomicfile"
	"github.com/credo-rl/credo/internal/lock"
	"github.com/credo-rl/credo/run"
)

// Owner is a run folder's one owner: a trainer takes the folder's lock
// (a resume before it reads the checkpoint, a fresh run in the temporary
// folder that becomes the folder, Create), holds it while it trains and
// lets it go when it returns. The lock dies with the process, so a killed
// run never blocks the next resume. The zero Owner holds nothing.
type Owner struct{ lk *lock.Lock }

// Take locks dir, unless the Owner holds it already.
func (o *Owner) Take(dir string) error {
	if o.lk != nil {
		return nil
	}
	lk, err := lock.Acquire(dir)
	if err != nil {
		return err
	}
	o.lk = lk
	return nil
}

// Release lets the folder go (a no-op when nothing is held).
func (o *Owner) Release() error {
	err := o.lk.Release()
	o.lk = nil
	return err
}

// Create makes a fresh run folder whole and takes it: fill writes the
// folder's files into a temporary sibling folder (which already holds an
// empty checkpoints/), which is then renamed into place, so dir either
// does not exist or holds a run. Folders abandoned beside it by killed
// runs are removed first (said on log).
func (o *Owner) Create(dir string, log io.Writer, fill func(tmp string) error) error {
	if err := lock.RemoveAbandoned(filepath.Dir(dir), log); err != nil {
		return err
	}
	tmp, lk, err := lock.MkdirTemp(dir) // the lock moves into place with the folder
	if err != nil {
		return fmt.Errorf("run directory: %w", err)
	}
	err = os.Mkdir(filepath.Join(tmp, "checkpoints"), atomicfile.DirMode)
	if err == nil {
		err = fill(tmp)
	}
	if err == nil {
		os.Remove(dir) // an empty folder in the way (a caller refuses a non-empty one)
		err = os.Rename(tmp, dir)
	}
	if err != nil {
		os.RemoveAll(tmp)
		lk.Release()
		return fmt.Errorf("run directory %s: %w", dir, err)
	}
	lk.Moved(dir)
	o.lk = lk
	return nil
}

// NoteRestart says on log that a resumed run in out has no checkpoint yet
// (it stopped before its first, due every `every` steps), so it starts
// over from step 0 with init, and how many logged steps that drops: a
// resume that silently begins again looks like one that lost its
// checkpoints.
func NoteRestart(log io.Writer, out string, every int, init string) {
	logged := 0
	run.ReadLines(filepath.Join(out, run.MetricsFile), func([]byte) error { logged++; return nil })
	dropped := ""
	if logged > 0 {
		dropped = fmt.Sprintf("; the %d step(s) metrics.jsonl logged are dropped and done again", logged)
	}
	fmt.Fprintf(log, "resuming %s: it has no checkpoint yet (it stopped before its first, due every %d steps), so it restarts from step 0 with %s%s\n",
		out, every, init, dropped)
}
