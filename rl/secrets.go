package rl

import (
	"fmt"

	"github.com/credo-rl/credo/internal/settings"

	"github.com/credo-rl/credo/internal/redact"
)

// judgeSecrets refuses judge specs whose URL carries a user name or a
// password: config.json, compare.json and every message would repeat it.
// The key belongs in an environment variable, named with key_env.
func judgeSecrets(judges []string) settings.Problems {
	var ps settings.Problems
	for _, spec := range judges {
		if shown, found := redact.URLs(spec); found {
			ps = append(ps, settings.Problem{Key: "judges", Msg: fmt.Sprintf("%q: a user name or password in a judge's url is not allowed (it would be saved in config.json and printed in messages): put the API key in an environment variable and name it with key_env=", shown)})
		}
	}
	return ps
}
