// Command credo trains language models with reinforcement learning against
// several verifiable rewards, giving each reward's credit to the tokens
// that earned it. Run `credo help` for the commands.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"syscall"

	_ "github.com/credo-rl/credo/reward/judge" // the judge verifier kind
	_ "github.com/credo-rl/credo/task/arith"
	_ "github.com/credo-rl/credo/task/ifeval"
	_ "github.com/credo-rl/credo/task/slots"
	_ "github.com/credo-rl/credo/task/sql"
	_ "github.com/credo-rl/credo/task/toolcall"
)

// command is one subcommand: it parses its own flags and runs.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

func commands() map[string]command {
	return map[string]command{
		"sft":         {"warm a policy up on a task's demonstrations", runSFT},
		"calibrate":   {"measure where a warmed-up policy starts: pass rate and zero-variance groups per reward", runCalibrate},
		"compare":     {"train several credit methods side by side and report", runCompare},
		"demo":        {"the main job on built-in defaults: a small comparison on tool calling", runDemo},
		"sample":      {"print responses of a checkpoint to a prompt", runSample},
		"train":       {"train a policy with RL and token-level credit", runTrain},
		"eval":        {"evaluate a checkpoint on a task's test split", runEval},
		"serve-model": {"serve a checkpoint over the OpenAI chat-completions protocol", runServe},
		"prm":         {"train or evaluate a process reward model", runPRM},
		"report":      {"write a self-contained HTML report of a run or compare directory", runReport},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	limitMemory()
	os.Exit(mainErr(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

// mainErr runs a command and turns its error into an exit code: 0 done,
// 2 bad usage, 1 anything else.
func mainErr(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stderr, cmds)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "credo: unknown command %q\n\n", args[0])
		usage(stderr, cmds)
		return 2
	}
	err := c.run(ctx, args[1:], stdout, stderr)
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, new(usageError)):
		fmt.Fprintf(stderr, "credo %s: %v\n", args[0], err)
		return 2
	default:
		fmt.Fprintf(stderr, "credo %s: %v\n", args[0], err)
		return 1
	}
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "credo: reinforcement learning with several verifiable rewards and token-level credit.")
	fmt.Fprintln(w, "\nUsage: credo <command> [flags]   (credo <command> --help lists a command's flags)")
	fmt.Fprintln(w, "\nCommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, cmds[n].summary)
	}
}

// usageError marks a bad invocation (exit code 2).
type usageError struct{ error }

// parse parses flags, turning a flag error into a usageError.
func parse(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return usageError{err}
	}
	if fs.NArg() > 0 {
		return usageError{fmt.Errorf("unexpected arguments %q", fs.Args())}
	}
	return nil
}

func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: credo %s [flags]\n\n%s\n\nFlags:\n", name, synopsis)
		fs.PrintDefaults()
	}
	return fs
}
