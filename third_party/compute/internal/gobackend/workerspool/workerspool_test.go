package workerspool

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gomlx/compute/support/testutil"
	"github.com/gomlx/compute/support/xsync"
)

func TestPool_Saturate(t *testing.T) {
	// Test saturation.
	pool := New()
	wantTasks := 5
	pool.SetMaxParallelism(wantTasks)

	var count atomic.Int32
	doneNewTasks := xsync.NewLatch()
	doneTest := xsync.NewLatch()

	go func() {
		pool.Saturate(func() {
			got := count.Add(1)
			runtime.Gosched()
			if int(got) == wantTasks {
				doneNewTasks.Trigger()
				return
			}
			doneNewTasks.Wait()
		})
		doneTest.Trigger()
	}()

	select {
	case <-doneTest.WaitChan():
		// Success
	case <-time.After(100 * time.Millisecond):
		t.Fatal("Timeout before all tasks were executed.")
	}
	if int(count.Load()) != wantTasks {
		t.Fatalf("Expected %d tasks, got %d", wantTasks, count.Load())
	}

	// Test No Parallelism
	pool.SetMaxParallelism(0)
	count.Store(0)
	pool.Saturate(func() { count.Add(1) })
	if ok, diff := testutil.IsEqual(int32(1), count.Load()); !ok {
		t.Errorf("Pool with parallelism 0 result mismatch:\n%s", diff)
	}

	// Test Unlimited
	pool.SetMaxParallelism(-1)
	wantUnlimited := runtime.GOMAXPROCS(0)
	var started atomic.Int32
	doneUnlimited := xsync.NewLatch()
	doneTestUnlimited := xsync.NewLatch()

	go func() {
		pool.Saturate(func() {
			got := started.Add(1)
			runtime.Gosched()
			if int(got) == wantUnlimited {
				doneUnlimited.Trigger()
				return
			}
			doneUnlimited.Wait()
		})
		doneTestUnlimited.Trigger()
	}()

	select {
	case <-doneTestUnlimited.WaitChan():
		// Success
	case <-time.After(100 * time.Millisecond):
		t.Fatal("Timeout before all unlimited tasks were executed.")
	}

	if runtime.GOMAXPROCS(0) > 1 && started.Load() <= 1 {
		t.Errorf("Expected more than 1 started task for unlimited parallelism, got %d", started.Load())
	}
	if int(started.Load()) != wantUnlimited {
		t.Errorf("Expected started %d to match wantUnlimited %d", started.Load(), wantUnlimited)
	}
}

// TestWorkerIsAsleepFreesSlot: workers that hold the pool's slots but wait
// (as the graph executors do between nodes) give their slots to Saturate
// while asleep, and take them back when restarted.
func TestWorkerIsAsleepFreesSlot(t *testing.T) {
	pool := New()
	pool.SetMaxParallelism(3)
	release := make(chan struct{})
	asleep := make(chan struct{})
	for range 2 { // two idle "executors" hold two of the three slots
		if !pool.StartIfAvailable(func() {
			pool.WorkerIsAsleep()
			asleep <- struct{}{}
			<-release
			pool.WorkerRestarted()
		}) {
			t.Fatal("StartIfAvailable refused with room left")
		}
	}
	<-asleep
	<-asleep
	if got := pool.Room(); got != 3 {
		t.Fatalf("Room with 2 of 3 workers asleep = %d, want 3", got)
	}

	// Saturate must now fan out to all three slots: each task waits until
	// three have started, so it would hang with one.
	var count atomic.Int32
	all := xsync.NewLatch()
	done := make(chan struct{})
	go func() {
		pool.Saturate(func() {
			if count.Add(1) == 3 {
				all.Trigger()
			}
			all.Wait()
		})
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatalf("Saturate started %d tasks, want 3 (the asleep workers' slots were not available)", count.Load())
	}
	close(release)
	for {
		pool.mu.Lock()
		running := pool.numRunning
		pool.mu.Unlock()
		if running == 0 {
			break
		}
		runtime.Gosched()
	}
	if got := pool.extraParallelism.Load(); got != 0 {
		t.Fatalf("extraParallelism = %d after the workers restarted and finished, want 0", got)
	}
	if got := pool.Room(); got != 3 {
		t.Fatalf("Room after all workers finished = %d, want 3", got)
	}
}

// TestSaturateFullPoolRunsInCaller: with every slot taken, Saturate does
// the work in the calling goroutine instead of waiting for a slot.
func TestSaturateFullPoolRunsInCaller(t *testing.T) {
	pool := New()
	pool.SetMaxParallelism(1)
	release := make(chan struct{})
	if !pool.StartIfAvailable(func() { <-release }) {
		t.Fatal("StartIfAvailable refused on an empty pool")
	}
	defer close(release)
	var calls atomic.Int32
	done := make(chan struct{})
	go func() {
		pool.Saturate(func() { calls.Add(1) })
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Saturate waited for a slot with the pool full")
	}
	if got := calls.Load(); got != 1 {
		t.Fatalf("task ran %d times with the pool full, want 1 (the caller)", got)
	}
}
