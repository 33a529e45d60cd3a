package replay

import (
	"os"
	"testing"

	"github.com/credo-rl/credo/policy/policytest"

	_ "github.com/credo-rl/credo/task/toolcall"
)

func TestMain(m *testing.M) {
	code := m.Run()
	policytest.Remove()
	os.Exit(code)
}
