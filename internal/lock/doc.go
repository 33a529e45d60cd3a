// Package lock gives a folder one owner at a time. The owner holds an OS
// file lock (flock) on a lock file inside the folder; the kernel drops it
// when the owning process ends, however it ends, so a process killed with
// SIGKILL never leaves a stale lock. A second process that asks for the
// folder gets a *BusyError naming the owner's pid and command.
//
// It also makes the hidden temporary folders that credo builds a folder's
// new contents in (MkdirTemp: locked from their first moment), and removes
// those whose owner died before renaming them into place (RemoveAbandoned).
//
// It imports only the standard library and internal/atomicfile.
package lock
