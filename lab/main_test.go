package lab

import (
	"os"
	"testing"

	"github.com/credo-rl/credo/policy/policytest"

	_ "github.com/credo-rl/credo/task/arith"
	_ "github.com/credo-rl/credo/task/sql"
	_ "github.com/credo-rl/credo/task/toolcall"
)

func TestMain(m *testing.M) {
	code := m.Run()
	policytest.Remove()
	os.Exit(code)
}
