package lab

import (
	"os"
	"testing"

	"github.com/credo-rl/credo/internal/testpolicy"

	_ "github.com/credo-rl/credo/task/arith"
	_ "github.com/credo-rl/credo/task/sql"
	_ "github.com/credo-rl/credo/task/toolcall"
)

func TestMain(m *testing.M) {
	code := m.Run()
	testpolicy.Remove()
	os.Exit(code)
}
