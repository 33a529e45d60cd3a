package sql

import (
	"context"
	dbsql "database/sql"
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/task"
)

func init() { task.Register("sql", New) }

// Random streams, one per use of the seed, so the database, the prompts and
// the demonstrations do not share draws.
const (
	streamData    = 0x5d1_da7a
	streamPrompts = 0x5d1_9a0b
	streamDemos   = 0x5d1_de30
	streamSplit   = 0x5d1_5b17
)

// testShare is the share of distinct prompts that belong to the test split.
const testShare = 5 // one in five

// Options are the sandbox's limits. Zero fields take the defaults.
type Options struct {
	TimeLimit     time.Duration // per query; default 200 ms
	MaxRows       int           // rows a query may return; default 1,000
	MaxQueryBytes int           // default 10,000
	Conns         int           // read-only connections kept open between queries; default 8 (more open while more queries run at once)
	// CacheBytes bounds the outcome cache's estimated memory (query texts,
	// rows and values); default 32 MiB. Negative: no cache.
	CacheBytes int
}

func (o Options) withDefaults() Options {
	if o.TimeLimit <= 0 {
		o.TimeLimit = 200 * time.Millisecond
	}
	if o.MaxRows <= 0 {
		o.MaxRows = 1000
	}
	if o.MaxQueryBytes <= 0 {
		o.MaxQueryBytes = 10_000
	}
	if o.Conns <= 0 {
		o.Conns = 8
	}
	if o.CacheBytes == 0 {
		o.CacheBytes = 32 << 20
	}
	return o
}

// Task is the sql task. It owns a generated SQLite database and a pool of
// read-only connections to it; Close releases them. Its methods are safe
// for concurrent use.
type Task struct {
	seed    uint64
	data    *dataset
	path    string
	ownDir  string // a temporary directory Close removes ("" when the caller chose Dir)
	box     *sandbox
	rewards []reward.Verifier
	kinds   []kind // the kinds and templates the difficulty settings keep
	think   string // thinkShort or thinkVaried
}

var (
	_ task.Task    = (*Task)(nil)
	_ task.Tunable = (*Task)(nil)
)

// New builds the task with default Options; it is the registered
// constructor. Close the task (it implements io.Closer) to release the
// database.
func New(c task.Config) (task.Task, error) { return Open(c, Options{}) }

// Open generates the database for c.Seed in c.Dir (a new temporary
// directory when empty, removed again by Close), as sql-<seed>.db, and
// opens the verification pool on it.
func Open(c task.Config, o Options) (*Task, error) {
	o = o.withDefaults()
	t := &Task{seed: c.Seed, data: generate(c.Seed)}
	ks, err := selectKinds(c.Difficulty, t.data)
	if err != nil {
		return nil, fmt.Errorf("sql task: %w", err)
	}
	t.kinds = ks
	if t.think, err = selectThink(c.Difficulty); err != nil {
		return nil, fmt.Errorf("sql task: %w", err)
	}
	dir := c.Dir
	if dir == "" {
		d, err := os.MkdirTemp("", "credo-sql-")
		if err != nil {
			return nil, fmt.Errorf("sql task: %w", err)
		}
		dir, t.ownDir = d, d
	} else if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("sql task: %w", err)
	}
	t.path = filepath.Join(dir, fmt.Sprintf("sql-%d.db", c.Seed))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := writeDB(ctx, t.path, t.data); err != nil {
		t.removeDir()
		return nil, fmt.Errorf("sql task: %w", err)
	}
	box, err := newSandbox(t.path, o)
	if err != nil {
		t.removeDir()
		return nil, fmt.Errorf("sql task: %w", err)
	}
	t.box = box
	t.rewards = []reward.Verifier{formatVerifier{}, executesVerifier{box}, resultVerifier{box}}
	return t, nil
}

// Close closes the connection pool and removes the temporary directory
// Open made, if it made one. A database in a caller's Dir stays.
func (t *Task) Close() error {
	err := t.box.db.Close()
	return errors.Join(err, t.removeDir())
}

func (t *Task) removeDir() error {
	if t.ownDir == "" {
		return nil
	}
	return os.RemoveAll(t.ownDir)
}

// Name is "sql".
func (t *Task) Name() string { return "sql" }

// Path is the database file.
func (t *Task) Path() string { return t.path }

// DB is the read-only pool, for inspection (the verifiers use their own
// limits on it). Do not close it; Close the task.
func (t *Task) DB() *dbsql.DB { return t.box.db }

// Rewards are format, executes and result, in that order.
func (t *Task) Rewards() []reward.Verifier { return t.rewards }

// Prompt returns prompt i of split. It draws questions from a generator
// seeded by (seed, split, i) until one falls in split: a question's split
// is a hash of its text, so the two splits never share a prompt (one in
// five distinct questions is a test question).
func (t *Task) Prompt(split task.Split, i int) task.Prompt {
	r := rand.New(rand.NewPCG(t.seed^streamPrompts, uint64(i)<<1|uint64(split)))
	x := t.drawIn(r, split)
	return task.Prompt{ID: fmt.Sprintf("sql-%s-%d", split, i), Text: promptText(x.text), Ref: x.Ref}
}

// drawIn draws questions until one belongs to split. A fifth of all
// questions are test questions, so this ends after 1.25 draws on average
// for train and 5 for test; every template has many distinct questions, so
// both splits hold every template.
func (t *Task) drawIn(r *rand.Rand, split task.Split) question {
	for {
		x := draw(r, t.data, t.kinds)
		if t.splitOf(x.text) == split {
			return x
		}
	}
}

func (t *Task) splitOf(text string) task.Split {
	h := fnv.New64a()
	var b [8]byte
	for i := range b {
		b[i] = byte((t.seed ^ streamSplit) >> (8 * i))
	}
	h.Write(b[:])
	h.Write([]byte(text))
	if h.Sum64()%testShare == 0 {
		return task.Test
	}
	return task.Train
}
