package task_test

import (
	"context"
	"errors"
	"net"
	"strings"
	"testing"

	"github.com/credo-rl/credo/internal/settings"
	"github.com/credo-rl/credo/reward"
	_ "github.com/credo-rl/credo/reward/judge"
	"github.com/credo-rl/credo/task"
	_ "github.com/credo-rl/credo/task/toolcall"
)

// TestBuild: a task is built from its name, seed and difficulty; a bad
// difficulty or an unknown name is an error.
func TestBuild(t *testing.T) {
	for _, tc := range []struct {
		name, difficulty, wantErr string
	}{
		{"toolcall", "", ""},
		{"toolcall", "nonsense", "key=value"},
		{"no-such-task", "", "toolcall"}, // an unknown name lists the known ones
	} {
		tk, err := task.Build(tc.name, 1, tc.difficulty)
		if tc.wantErr == "" {
			if err != nil || tk.Name() != tc.name {
				t.Errorf("Build(%q, %q): %v, %v", tc.name, tc.difficulty, tk, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
			t.Errorf("Build(%q, %q): error %v, want one containing %q", tc.name, tc.difficulty, err, tc.wantErr)
		}
	}
}

// TestRewards: the one set-up of rewards (training and `credo eval`)
// builds the task's rewards and the judges, refuses a judge named like a
// task reward as a configuration error, and stops at a judge whose server
// cannot be reached.
func TestRewards(t *testing.T) {
	tk, err := task.New("toolcall", task.Config{})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := task.Rewards(context.Background(), tk, nil)
	if err != nil || len(vs) != len(tk.Rewards()) {
		t.Fatalf("no judges: %d rewards, %v", len(vs), err)
	}
	closed := closedURL(t)
	_, err = task.Rewards(context.Background(), tk, []string{"name=format,url=" + closed + ",model=m"})
	if ce := (*settings.Error)(nil); !errors.As(err, &ce) || !strings.Contains(err.Error(), "already the name") {
		t.Errorf("a judge named format: %v", err)
	}
	_, err = task.Rewards(context.Background(), tk, []string{"name=q,url=" + closed + ",model=m,retries=0"})
	if err == nil || !strings.Contains(err.Error(), "judge q") {
		t.Errorf("an unreachable judge: %v", err)
	}
	vs, err = task.RewardsOf(tk, []string{"name=q,url=" + closed + ",model=m,retries=0"})
	if err != nil || len(vs) != len(tk.Rewards())+1 || vs[len(vs)-1].Name() != "q" {
		t.Errorf("RewardsOf does not ask the judge: %d rewards, %v", len(vs), err)
	}
}

// closedURL is an address on 127.0.0.1 that nothing listens on.
func closedURL(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return "http://" + addr + "/v1"
}

// extraVerifier is a reward of the caller's (a user's own verifier).
type extraVerifier string

func (v extraVerifier) Name() string { return string(v) }
func (v extraVerifier) Verify(context.Context, reward.Prompt, string) (reward.Verdict, error) {
	return reward.Verdict{Score: 1}, nil
}

// TestRewardsExtra: extra verifiers come after the task's rewards and the
// judges, and one named like a reward already there is a configuration
// error.
func TestRewardsExtra(t *testing.T) {
	tk, err := task.New("toolcall", task.Config{})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := task.Rewards(context.Background(), tk, nil, extraVerifier("mine"))
	if err != nil || len(vs) != len(tk.Rewards())+1 || vs[len(vs)-1].Name() != "mine" {
		t.Errorf("%v, %v", reward.NamesOf(vs), err)
	}
	_, err = task.RewardsOf(tk, nil, extraVerifier("call"))
	if ce := (*settings.Error)(nil); !errors.As(err, &ce) || !strings.Contains(err.Error(), `verifier "call": its name is already`) {
		t.Errorf("an extra named call: %v", err)
	}
}
