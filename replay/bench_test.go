package replay

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/credo-rl/credo/credit"
	"github.com/credo-rl/credo/model"
	"github.com/credo-rl/credo/reward"
	"github.com/credo-rl/credo/tokenizer"
)

// BenchmarkReplay times one MRTPO step's replay for the 1M preset at
// toolcall's sizes (8 prompts of ~120 bytes × G = 8 responses of ~115
// bytes, two rewards with ~80-byte blocks, both varying: full, without
// block 1 and without block 2 for every response, 192 sequences), with
// each sequence run whole and with shared prefixes.
//
//	go test ./replay -run XXX -bench Replay -benchtime 3x
func BenchmarkReplay(b *testing.B) {
	tok, err := tokenizer.NewBytes()
	if err != nil {
		b.Fatal(err)
	}
	m, err := model.New(model.Small(tok.VocabSize()), 1)
	if err != nil {
		b.Fatal(err)
	}
	var reqs []credit.ReplayRequest
	for p := range 8 {
		prompt := fmt.Sprintf("Question %d: %s", p, strings.Repeat("call the tool with these arguments ", 3))
		blocks := []string{fmt.Sprintf("Format %d: %s", p, strings.Repeat("a JSON object ", 5)), fmt.Sprintf("Reference %d: %s", p, strings.Repeat("{\"x\": 1} ", 8))}
		for g := range 8 {
			resp, _ := tok.Encode(fmt.Sprintf("response %d.%d %s", p, g, strings.Repeat("{\"arg\": 2} ", 10)))
			for _, bl := range [][]string{blocks, {blocks[1]}, {blocks[0]}} {
				reqs = append(reqs, credit.ReplayRequest{Prompt: reward.Compose(prompt, bl), Response: resp})
			}
		}
	}
	for _, c := range []struct {
		name string
		f    Forwarder
	}{{"whole", plainModel{m}}, {"shared", m}} {
		b.Run(c.name, func(b *testing.B) {
			r := New(c.f, tok, Chunk)
			for range b.N {
				if _, err := r.Replay(context.Background(), reqs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
