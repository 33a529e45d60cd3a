package optim

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/credo-rl/credo/model"
	"gopkg.in/yaml.v3"
)

// Memory bounds what one training step holds at once. A step over B
// sequences is split into micro-batches of MicroBatch sequences (or, when
// MicroBatch is 0, of as many as model.Config.StepBytes estimates fit in
// Budget less the weights, gradient and AdamW moments); their gradients are
// summed before the one update. The zero value runs every batch whole.
type Memory struct {
	// Budget is the bytes a step may take: its weights, gradient and AdamW
	// moments (16 bytes a parameter), and its activations (0: no limit).
	Budget Bytes `json:"memory_budget" yaml:"memory_budget"`
	// MicroBatch is the number of sequences per micro-batch; it overrides
	// Budget when positive.
	MicroBatch int `json:"micro_batch,omitempty" yaml:"micro_batch,omitempty"`
}

// Validate rejects negative settings.
func (m Memory) Validate() error {
	if m.Budget < 0 || m.MicroBatch < 0 {
		return fmt.Errorf("memory: budget %d and micro-batch %d must not be negative", m.Budget, m.MicroBatch)
	}
	return nil
}

// SetMemory sets how later steps split their batches.
func (u *Updater) SetMemory(m Memory) error {
	if err := m.Validate(); err != nil {
		return err
	}
	u.mem = m
	return nil
}

// microRows is the number of sequences per micro-batch for this batch:
// the override, or as many as fit the budget at the batch's padded length
// (at least one), or the whole batch. The budget holds the step's static
// memory too (staticBytes): at 1M–10M it is a few MB and changes nothing,
// at SmolLM2-135M's 2.2 GB it is what kept a 4 GiB budget from splitting
// 32 sequences of 256 tokens finely enough to stay near it (11 GB peak).
func (u *Updater) microRows(seqs [][]int32) int {
	switch {
	case u.mem.MicroBatch > 0:
		return u.mem.MicroBatch
	case u.mem.Budget == 0:
		return len(seqs)
	}
	T := 0
	for _, s := range seqs {
		T = max(T, len(s))
	}
	per := u.m.Config.StepBytes(model.Bucket(T))
	avail := int64(u.mem.Budget) - staticBytes(u.m.Config)
	return int(max(avail/max(per, 1), 1))
}

// staticBytes is what a training step holds whatever its batch, in
// float32: the weights, their summed gradient and AdamW's two moments,
// 16 bytes a parameter.
func staticBytes(c model.Config) int64 { return 16 * int64(c.NumParams()) }

// Bytes is a size in bytes, written with a binary unit: "512MiB", "4GiB"
// (also KiB, TiB, a bare number of bytes, and KB/MB/GB meaning the same
// binary units).
type Bytes int64

var byteUnits = []struct {
	suffix string
	scale  int64
}{{"TIB", 1 << 40}, {"GIB", 1 << 30}, {"MIB", 1 << 20}, {"KIB", 1 << 10}, {"TB", 1 << 40}, {"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"T", 1 << 40}, {"G", 1 << 30}, {"M", 1 << 20}, {"K", 1 << 10}, {"B", 1}}

// ParseBytes reads a size such as "4GiB", "512MiB" or "1.5GiB".
func ParseBytes(s string) (Bytes, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	scale := int64(1)
	for _, u := range byteUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, scale = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.scale
			break
		}
	}
	x, err := strconv.ParseFloat(t, 64)
	if err != nil || x < 0 || x*float64(scale) > 1<<62 {
		return 0, fmt.Errorf("size %q: want a non-negative number with a unit such as 512MiB or 4GiB", s)
	}
	return Bytes(x * float64(scale)), nil
}

// String writes the size in the largest binary unit that divides it.
func (b Bytes) String() string {
	for _, u := range []struct {
		name  string
		scale int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if b != 0 && int64(b)%u.scale == 0 {
			return strconv.FormatInt(int64(b)/u.scale, 10) + u.name
		}
	}
	return strconv.FormatInt(int64(b), 10)
}

// Set parses a flag value.
func (b *Bytes) Set(s string) error {
	v, err := ParseBytes(s)
	if err != nil {
		return err
	}
	*b = v
	return nil
}

// MarshalJSON writes the size as a string such as "4GiB".
func (b Bytes) MarshalJSON() ([]byte, error) { return json.Marshal(b.String()) }

// UnmarshalJSON reads a string such as "4GiB" or a number of bytes.
func (b *Bytes) UnmarshalJSON(data []byte) error {
	var s string
	if err := json.Unmarshal(data, &s); err != nil {
		var n int64
		if err := json.Unmarshal(data, &n); err != nil {
			return fmt.Errorf("size: want a string such as \"4GiB\" or a number of bytes")
		}
		s = strconv.FormatInt(n, 10)
	}
	return b.Set(s)
}

// MarshalYAML writes the size as a string such as "4GiB".
func (b Bytes) MarshalYAML() (any, error) { return b.String(), nil }

// UnmarshalYAML reads a string such as "4GiB" or a number of bytes.
func (b *Bytes) UnmarshalYAML(n *yaml.Node) error { return b.Set(n.Value) }
