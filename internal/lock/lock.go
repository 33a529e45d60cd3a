package lock

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// File is the lock file's name inside a locked folder. It exists while the
// folder has an owner (and after an owner killed with SIGKILL, unlocked:
// the next owner takes it over).
const File = ".credo.lock"

// Owner is what a lock file says about the process holding it.
type Owner struct {
	PID     int       `json:"pid"`
	Command string    `json:"command"` // the program and its subcommand, never its flags (they may hold paths and URLs)
	Since   time.Time `json:"since"`
}

// BusyError is a folder another process owns.
type BusyError struct {
	Dir   string
	Owner Owner // zero when the owner had not written its name yet
}

func (e *BusyError) Error() string {
	who := "another process"
	if e.Owner.PID > 0 {
		who = fmt.Sprintf("process %d (%s, since %s)", e.Owner.PID, e.Owner.Command, e.Owner.Since.Local().Format("2006-01-02 15:04:05"))
	}
	return fmt.Sprintf("%s is in use by %s: a folder has one owner at a time; wait for it to finish, or stop it", e.Dir, who)
}

// Lock is a held folder lock. Keep it reachable until Release: the
// garbage collector closes an unreachable Lock's file, which unlocks it.
type Lock struct {
	dir string
	f   *os.File
}

// Dir is the locked folder.
func (l *Lock) Dir() string { return l.dir }

// Acquire takes dir's lock without waiting: a *BusyError when another
// process (or another Acquire in this one) holds it. dir must exist.
func Acquire(dir string) (*Lock, error) {
	path := filepath.Join(dir, File)
	for range 8 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", dir, err)
		}
		held, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", dir, err)
		}
		if !held {
			owner := readOwner(f)
			f.Close()
			return nil, &BusyError{Dir: dir, Owner: owner}
		}
		// A releasing owner unlinks the file after we opened it and before
		// we locked it: then we hold a lock nobody else can see. Try again.
		if !stillNamed(f, path) {
			f.Close()
			continue
		}
		if err := writeOwner(f); err != nil {
			f.Close()
			return nil, fmt.Errorf("lock %s: %w", dir, err)
		}
		return &Lock{dir: dir, f: f}, nil
	}
	return nil, fmt.Errorf("lock %s: the lock file kept changing under us", dir)
}

// Release removes the lock file, if it is still this lock's, and unlocks.
// A nil Lock, or one already released, releases nothing.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	var err error
	if stillNamed(l.f, filepath.Join(l.dir, File)) {
		err = os.Remove(filepath.Join(l.dir, File))
	}
	err = errors.Join(err, l.f.Close())
	l.f = nil
	if err != nil {
		return fmt.Errorf("unlock %s: %w", l.dir, err)
	}
	return nil
}

// Moved tells the lock that its folder is now named dir (it was renamed
// into place): the lock file moved with it, and Release must look there.
func (l *Lock) Moved(dir string) { l.dir = dir }

// stillNamed reports whether path names the open file f.
func stillNamed(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Stat(path)
	return err == nil && os.SameFile(a, b)
}

// writeOwner records this process in the lock file.
func writeOwner(f *os.File) error {
	cmd := filepath.Base(os.Args[0])
	if len(os.Args) > 1 && !strings.HasPrefix(os.Args[1], "-") {
		cmd += " " + os.Args[1]
	}
	data, _ := json.Marshal(Owner{PID: os.Getpid(), Command: cmd, Since: time.Now().UTC()})
	if err := f.Truncate(0); err != nil {
		return err
	}
	_, err := f.WriteAt(append(data, '\n'), 0)
	return err
}

// readOwner reads the lock file's owner, waiting briefly for an owner that
// has just locked it to write its name.
func readOwner(f *os.File) Owner {
	for range 20 {
		if o := readOwnerOnce(f); o.PID > 0 {
			return o
		}
		time.Sleep(5 * time.Millisecond)
	}
	return Owner{}
}

// readOwnerOnce decodes the lock file's owner (zero when it holds none).
func readOwnerOnce(f *os.File) Owner {
	var o Owner
	buf := make([]byte, 4096)
	n, _ := f.ReadAt(buf, 0)
	if json.Unmarshal(buf[:n], &o) != nil {
		return Owner{}
	}
	return o
}
