package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/credo-rl/credo/cmd/credo/internal/cli"
	"github.com/credo-rl/credo/internal/suggest"

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
		"demo":        {"the main job on built-in defaults: grpo, gdpo, span and mrtpo, one seed each, on the controlled task slots (three sums of operands up to 5, one reward per line)", runDemo},
		"sample":      {"print responses of a checkpoint to a prompt", runSample},
		"train":       {"train a policy with RL and token-level credit", runTrain},
		"eval":        {"evaluate a checkpoint on a task's test split", runEval},
		"serve-model": {"serve a checkpoint over the OpenAI chat-completions protocol", runServe},
		"serve":       {"serve credo's verifiers and token-level credit to other trainers over HTTP (docs/SERVICE.md)", runService},
		"prm":         {"train or evaluate a process reward model", runPRM},
		"report":      {"write a self-contained HTML report of a run or compare directory", runReport},
		"import-gguf": {"convert a llama GGUF file (llama.cpp) into a Hugging Face folder credo loads", runImportGGUF},
		"blocks":      {"does a checkpoint read its rewards' information blocks? (the block diagnostic)", runBlocks},
		"focus":       {"how much can token credit change an update? where a uniform advantage's logit update lands on a run's samples", runFocus},
	}
}

func main() {
	ctx, stop := interruptContext()
	defer stop()
	limitMemory()
	os.Exit(mainAs(ctx, invokedAs(os.Args[0]), os.Args[1:], os.Stdout, os.Stderr))
}

// invokedAs is the name the hints credo prints (continue with: …, Run
// '… --help') give its binary, so that they can be pasted (issue 49:
// they said credo where only bin/credo worked): arg0 as typed when a
// shell in the same folder finds it again (a path such as bin/credo, a
// name on PATH), else the executable's absolute path.
func invokedAs(arg0 string) string {
	if strings.ContainsRune(arg0, filepath.Separator) {
		return arg0
	}
	if _, err := exec.LookPath(arg0); err == nil && arg0 != "" {
		return arg0
	}
	if exe, err := os.Executable(); err == nil {
		return exe
	}
	return "credo"
}

// interruptContext is cancelled by the first SIGINT or SIGTERM, which asks
// the command to stop cleanly; with it the default handling is back, so a
// second signal ends the process at once, whatever it is doing.
func interruptContext() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() { <-ctx.Done(); stop() }()
	return ctx, stop
}

// Exit codes.
const (
	exitOK          = 0
	exitError       = 1
	exitUsage       = 2   // a bad invocation: flags, settings, names
	exitInterrupted = 130 // SIGINT or SIGTERM, as shells report a signal
)

// mainErr runs a command and turns its error into an exit code: 0 done,
// 1 failed, 2 bad usage, 130 interrupted. Its hints name the binary credo.
func mainErr(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	return mainAs(ctx, "credo", args, stdout, stderr)
}

// mainAs is mainErr for a binary whose hints name it prog.
func mainAs(ctx context.Context, prog string, args []string, stdout, stderr io.Writer) int {
	cmds := commands()
	if len(args) == 0 {
		usage(stderr, cmds)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) == 1 {
			usage(stdout, cmds)
			return exitOK
		}
		// `credo help <command> [<subcommand>]` is `credo <command>
		// [<subcommand>] --help`.
		name, args = args[1], append(slices.Clone(args[1:]), "--help")
		if name == "config" {
			printConfigKeys(stdout)
			return exitOK
		}
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, version())
		return exitOK
	}
	c, ok := cmds[name]
	if !ok {
		known := slices.Sorted(maps.Keys(cmds))
		fmt.Fprintf(stderr, "credo: unknown command %q%s (%s help lists the commands)\n", name, suggest.Hint(name, append(known, "help", "version")), shellQuote([]string{prog}))
		return exitUsage
	}
	err := c.run(ctx, args[1:], stdout, stderr)
	var sub subcommandError
	if errors.As(err, &sub) {
		name = sub.name
	}
	var ue usageError
	var ie interrupted
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &ie):
		fmt.Fprintln(stderr, ie.text(prog))
		return exitInterrupted
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "credo %s: %s\nits flags: %s %s --help\n", name, message(name, ue.Err), shellQuote([]string{prog}), name)
		return exitUsage
	case ctx.Err() != nil && (errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)):
		fmt.Fprintf(stderr, "credo %s: interrupted\n", name)
		return exitInterrupted
	default:
		fmt.Fprintf(stderr, "credo %s: %s\n", name, message(name, err))
		return exitError
	}
}

// message is err's text without a leading repetition of the command's
// name (libraries prefix their errors with their own context, which is
// often the command's) and without a context said twice in a row.
func message(cmd string, err error) string {
	msg := strings.TrimPrefix(err.Error(), cmd+": ")
	for _, w := range strings.Fields(cmd) {
		msg = strings.TrimPrefix(msg, w+": ")
	}
	lines := strings.Split(msg, "\n")
	for i, line := range lines {
		parts := strings.Split(line, ": ")
		out := parts[:0]
		for _, p := range parts {
			if len(out) > 0 && out[len(out)-1] == p {
				continue
			}
			out = append(out, p)
		}
		lines[i] = strings.Join(out, ": ")
	}
	return strings.Join(lines, "\n")
}

func usage(w io.Writer, cmds map[string]command) {
	fmt.Fprintln(w, "credo: reinforcement learning with several verifiable rewards and token-level credit.")
	fmt.Fprintln(w, "\nUsage: credo <command> [flags]   (credo help <command> lists a command's flags; credo help config, the config file's keys)")
	fmt.Fprintln(w, "\nCommands:")
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-12s %s\n", n, cmds[n].summary)
	}
	fmt.Fprintln(w, "\nExit codes: 0 done, 1 failed, 2 bad usage (flags, settings, names), 130 interrupted.")
}

// usageError marks a bad invocation (exit code 2). It is the flag layer's
// cli.UsageError, so that credo's own usage errors and those of its flags
// are one kind.
type usageError = cli.UsageError

// subcommandError names the subcommand an error comes from (prm train), so
// that messages name it.
type subcommandError struct {
	name string
	err  error
}

func (e subcommandError) Error() string { return e.err.Error() }
func (e subcommandError) Unwrap() error { return e.err }

// interrupted is a command stopped by a signal: what it kept (msg), then
// the arguments of the command line to run next, after the binary's name.
type interrupted struct {
	msg  string
	next []string
}

func (e interrupted) Error() string { return e.text("credo") }

// text is the message with the next command line naming the binary prog.
func (e interrupted) text(prog string) string {
	return e.msg + " " + shellQuote(append([]string{prog}, e.next...))
}

// shellQuote renders args as a shell command line.
func shellQuote(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		if a != "" && !strings.ContainsAny(a, " \t\n'\"\\$`|&;<>()*?[]#~!{}") {
			out[i] = a
			continue
		}
		out[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(out, " ")
}
