package lock

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/credo-rl/credo/internal/atomicfile"
)

// MkdirTemp makes the hidden temporary sibling (".<name>.tmp*") in which a
// new version of dir is built before it is renamed into place, and locks
// it: while this process lives, RemoveAbandoned in another leaves it
// alone. After the rename, call Moved(dir) on the lock, then Release.
func MkdirTemp(dir string) (tmp string, l *Lock, err error) {
	dir = filepath.Clean(dir)
	parent := filepath.Dir(dir)
	if err := os.MkdirAll(parent, atomicfile.DirMode); err != nil {
		return "", nil, err
	}
	tmp, err = atomicfile.MkdirTemp(parent, "."+filepath.Base(dir)+".tmp*")
	if err != nil {
		return "", nil, err
	}
	if l, err = Acquire(tmp); err != nil {
		os.RemoveAll(tmp)
		return "", nil, err
	}
	return tmp, l, nil
}

// RemoveAbandoned deletes the temporary folders MkdirTemp made in parent
// whose process died before renaming them into place (killed with SIGKILL,
// or the machine went down), and says so on log. A temporary folder whose
// lock is held belongs to a live process and stays; one without a lock file
// was not made by MkdirTemp and stays too, unless it is empty and older
// than emptyGrace (MkdirTemp's process died before it made its lock file).
// A missing parent holds nothing.
func RemoveAbandoned(parent string, log io.Writer) error {
	entries, err := os.ReadDir(parent)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("clean %s: %w", parent, err)
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), ".") || !strings.Contains(e.Name(), ".tmp") {
			continue
		}
		dir := filepath.Join(parent, e.Name())
		was, ok := ownerOf(dir)
		if !ok {
			if emptyAndOld(dir) { // killed between MkdirTemp's mkdir and its lock
				if err := os.Remove(dir); err == nil {
					fmt.Fprintf(log, "removed %s, an empty folder left by a process that stopped before it wrote anything\n", dir)
				}
			}
			continue
		}
		l, err := Acquire(dir)
		var busy *BusyError
		if errors.As(err, &busy) {
			continue // its owner is alive
		}
		if err != nil {
			return fmt.Errorf("clean %s: %w", parent, err)
		}
		err = os.RemoveAll(dir)
		l.Release()
		if err != nil {
			return fmt.Errorf("remove the unfinished %s: %w", dir, err)
		}
		fmt.Fprintf(log, "removed %s, an unfinished folder left by %s\n", dir, describe(was))
	}
	return nil
}

// emptyGrace is how old an empty temporary folder without a lock file
// must be to count as abandoned: MkdirTemp creates the lock file
// microseconds after the folder.
const emptyGrace = time.Minute

// emptyAndOld reports whether dir holds nothing and was made more than
// emptyGrace ago.
func emptyAndOld(dir string) bool {
	st, err := os.Stat(dir)
	if err != nil || time.Since(st.ModTime()) < emptyGrace {
		return false
	}
	entries, err := os.ReadDir(dir)
	return err == nil && len(entries) == 0
}

// ownerOf reads the lock file in dir without locking it; ok is false when
// there is none.
func ownerOf(dir string) (Owner, bool) {
	f, err := os.Open(filepath.Join(dir, File))
	if err != nil {
		return Owner{}, false
	}
	defer f.Close()
	o := readOwnerOnce(f)
	return o, true
}

// describe names a dead owner for a message.
func describe(o Owner) string {
	if o.PID <= 0 {
		return "a process that stopped before it finished"
	}
	return fmt.Sprintf("%s (pid %d, started %s), which stopped before it finished", o.Command, o.PID, o.Since.Local().Format("2006-01-02 15:04:05"))
}
