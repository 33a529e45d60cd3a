package lock

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

// helperEnv makes the test binary a helper process (TestMain): it locks
// the folder the variable names (or, with a "tmp:" prefix, makes a locked
// temporary sibling of it), prints the path and waits to be killed.
const helperEnv = "CREDO_LOCK_TEST_HELPER"

func TestMain(m *testing.M) {
	if arg := os.Getenv(helperEnv); arg != "" {
		helper(arg)
		return
	}
	os.Exit(m.Run())
}

func helper(arg string) {
	var path string
	var l *Lock
	var err error
	if dir, ok := strings.CutPrefix(arg, "tmp:"); ok {
		path, l, err = MkdirTemp(dir)
		if err == nil {
			os.WriteFile(filepath.Join(path, "model.safetensors"), []byte("half a model"), 0o644)
		}
	} else {
		path = arg
		l, err = Acquire(arg)
	}
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	fmt.Println(path)
	for { // until killed; the lock must stay reachable, or the collector closes its file
		time.Sleep(time.Hour)
		runtime.KeepAlive(l)
	}
}

// startHelper runs the helper on arg and returns it once it holds its lock.
func startHelper(t *testing.T, arg string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+arg)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil || strings.HasPrefix(line, "error:") {
		t.Fatalf("helper: %q %v", line, err)
	}
	return cmd, strings.TrimSpace(line)
}

// kill9 kills a helper with SIGKILL and waits for it.
func kill9(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
}

// TestOneOwnerInProcess: a second Acquire of a held folder is a
// *BusyError naming this process; after Release the folder is free and
// its lock file gone.
func TestOneOwnerInProcess(t *testing.T) {
	dir := t.TempDir()
	l, err := Acquire(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Acquire(dir)
	var busy *BusyError
	if !errors.As(err, &busy) || busy.Owner.PID != os.Getpid() || !strings.Contains(err.Error(), fmt.Sprintf("process %d", os.Getpid())) {
		t.Fatalf("second Acquire: %v", err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, File)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock file outlived its lock: %v", err)
	}
	l2, err := Acquire(dir)
	if err != nil {
		t.Fatalf("after Release: %v", err)
	}
	l2.Release()
	if err := l2.Release(); err != nil {
		t.Errorf("a second Release: %v", err)
	}
}

// TestOneOwnerAcrossProcesses: another process's lock makes Acquire fail
// with its pid; when that process is killed with SIGKILL the folder is
// free at once, its lock file left behind but not held.
func TestOneOwnerAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	cmd, _ := startHelper(t, dir)
	_, err := Acquire(dir)
	var busy *BusyError
	if !errors.As(err, &busy) || busy.Owner.PID != cmd.Process.Pid {
		t.Fatalf("Acquire beside pid %d: %v", cmd.Process.Pid, err)
	}
	t.Logf("the second owner is told: %v", err)
	kill9(t, cmd)
	l, err := Acquire(dir)
	if err != nil {
		t.Fatalf("after kill -9 of the owner: %v", err)
	}
	l.Release()
}

// TestRemoveAbandoned: a temporary folder whose process was killed is
// removed, and the log says so, as is an old empty one without a lock file;
// a live process's, a foreign one with files, and a young empty one stay.
func TestRemoveAbandoned(t *testing.T) {
	parent := t.TempDir()
	dead, deadTmp := startHelper(t, "tmp:"+filepath.Join(parent, "warm"))
	_, liveTmp := startHelper(t, "tmp:"+filepath.Join(parent, "other"))
	foreign := filepath.Join(parent, ".foreign.tmp123")
	os.Mkdir(foreign, 0o755)
	os.WriteFile(filepath.Join(foreign, "data"), nil, 0o644)
	young, old := filepath.Join(parent, ".young.tmp1"), filepath.Join(parent, ".old.tmp1")
	os.Mkdir(young, 0o755)
	os.Mkdir(old, 0o755)
	long := time.Now().Add(-2 * emptyGrace)
	os.Chtimes(old, long, long)
	kill9(t, dead)

	var log bytes.Buffer
	if err := RemoveAbandoned(parent, &log); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(deadTmp); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the killed process's %s is still there", deadTmp)
	}
	if !strings.Contains(log.String(), "removed "+deadTmp) || !strings.Contains(log.String(), fmt.Sprintf("pid %d", dead.Process.Pid)) {
		t.Errorf("log: %q", log.String())
	}
	if _, err := os.Stat(old); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an empty temporary folder without a lock, %v old, is still there", 2*emptyGrace)
	}
	for _, keep := range []string{liveTmp, foreign, young} {
		if _, err := os.Stat(keep); err != nil {
			t.Errorf("%s was removed: %v", keep, err)
		}
	}
	if err := RemoveAbandoned(filepath.Join(parent, "missing"), &log); err != nil {
		t.Errorf("a missing parent: %v", err)
	}
}
