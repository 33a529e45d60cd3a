package credit

import (
	"context"

	"encoding/binary"
	"github.com/credo-rl/credo/reward"
)

// Batch is everything a method may use to assign credit for one training
// step. Every method sees the same Batch; a method that needs a model finds
// it in Replay or PRM and fails with a clear error when it is nil.
type Batch struct {
	Groups    []int              // group id of each response                          [N]
	Scores    [][]float64        // per reward, per response                           [K][N]
	Weights   []float64          // c[k]; nil means 1 for every reward                 [K]
	Rewards   []string           // reward names, for metric keys                      [K]
	Verdicts  [][]reward.Verdict // per reward, per response (Info and Spans)          [K][N]
	Prompts   []string           // prompt text of each response, without blocks       [N]
	Responses []string           // response text                                       [N]
	Tokens    [][]int32          // response tokens                                     [N][T_i]
	Offsets   [][][2]int         // byte range of each response token in its response   [N][T_i]
	Step      int                // training step (0-based), for β warm-up
	Seed      uint64             // for the shuffle ablation; the same seed and batch give the same result
	Replay    Replayer           // nil unless a method needs it
	PRM       Influencer         // nil unless a method needs it
}

// Advantages is a method's answer for a batch.
type Advantages struct {
	Tokens    [][]float64   // A[i,t], the advantage of every response token       [N][T_i]
	Response  []float64     // the response-level advantage the tokens average to   [N]
	Relevance [][][]float64 // q[k,i,t] where a token-level source computed it, else nil  [K][N][T_i]
}

// Metrics are named scalars a method reports (credit/concentration/…, …).
type Metrics map[string]float64

// Method turns a batch's scores into token advantages.
type Method interface {
	Advantages(ctx context.Context, b *Batch) (Advantages, Metrics, error)
}

// ReplayRequest asks for the policy's next-token distributions over a
// response that follows a prompt.
type ReplayRequest struct {
	Prompt   string  // the rendered prompt (reward.Compose of the prompt and some blocks)
	Response []int32 // the already-sampled response tokens
}

// Key identifies a request: its prompt, a zero byte, and its response
// tokens as little-endian uint32s. Identical requests are planned once,
// and a replayer that serves recorded answers (topk.Replayer) finds them
// by it.
func (r ReplayRequest) Key() string {
	key := make([]byte, 0, len(r.Prompt)+1+4*len(r.Response))
	key = append(append(key, r.Prompt...), 0)
	for _, tok := range r.Response {
		key = binary.LittleEndian.AppendUint32(key, uint32(tok))
	}
	return string(key)
}

// Replayer runs the policy without gradients. For each request it returns
// the next-token distribution that predicted each response token: out[r][t]
// is the distribution over the vocabulary from which Response[t] was drawn.
// Implementations batch the requests; callers pass as many as they can at once.
type Replayer interface {
	Replay(ctx context.Context, reqs []ReplayRequest) ([][][]float32, error) // [R][T_r][V]
}

// NullEmbedding names the reference embedding e_null of the gradient method.
type NullEmbedding string

const (
	NullPad  NullEmbedding = "pad"  // the PRM's padding token (default)
	NullMean NullEmbedding = "mean" // the mean of the embedding table
	NullZero NullEmbedding = "zero"
	NullEOS  NullEmbedding = "eos"
)

// InfluenceRequest asks a process reward model about one response.
type InfluenceRequest struct {
	Prompt   string
	Response string
	Offsets  [][2]int // the policy's token byte ranges, onto which influence is carried [T]
	// Target is the step scalar whose gradient gives the influence;
	// empty means TargetLogit.
	Target InfluenceTarget
	// Carry is how influence moves from the PRM's tokens to Offsets';
	// empty means CarrySum.
	Carry InfluenceCarry
}

// InfluenceTarget names the scalar S_s of each step that the gradient
// method differentiates: I[t] = ⟨∂(Σ_s S_s)/∂e_t, e_t − e_null⟩. The
// step's reward is R_s = sigmoid(logit_s) whatever the target; the target
// only decides how the step's tokens are ranked.
type InfluenceTarget string

const (
	// TargetLogit is S_s = logit_s, the PRM's score logit: for a
	// two-class head the logit difference z₁ − z₀ (softmax(z)₁ =
	// sigmoid(z₁ − z₀)), which a one-logit head such as credo's gives
	// directly. Its gradient has no saturating factor. The default, and
	// P2T's released code's ("logit_diff").
	TargetLogit InfluenceTarget = "logit"
	// TargetProb is S_s = R_s = sigmoid(logit_s), the P2T paper's ∂R/∂e:
	// its gradient carries R_s(1 − R_s), which flattens the influence of
	// steps the PRM is sure of.
	TargetProb InfluenceTarget = "prob"
	// TargetLogProb is S_s = log R_s, gradient factor 1 − R_s.
	TargetLogProb InfluenceTarget = "logprob"
)

// InfluenceCarry names how influence computed on the PRM's tokens moves to
// the policy's when the two tokenizers differ.
type InfluenceCarry string

const (
	// CarrySum: a policy token gets the sum of the PRM tokens inside it,
	// and a PRM token spanning k policy tokens gives each 1/k (the sum over
	// the response is kept). The default.
	CarrySum InfluenceCarry = "sum"
	// CarryMean: a policy token gets the mean of the PRM tokens' influence
	// over the bytes it shares with the step it overlaps most, weighted by
	// the bytes shared (P2T's released code, agg = "mean"); a token that
	// shares no byte with a step gets 0.
	CarryMean InfluenceCarry = "mean"
)

// StepScore is one step of a response as the PRM scored it.
type StepScore struct {
	Start, End int     // policy token range [Start, End) of the step
	Logit      float64 // the PRM's score logit for the step
}

// Influence is the PRM's answer for one response.
type Influence struct {
	Token []float64   // I[t] = ⟨∂S/∂e_t, e_t − e_null⟩ on each policy token  [T]
	Steps []StepScore // the steps, in order, covering the tokens they hold
}

// Influencer is a differentiable process reward model.
type Influencer interface {
	Influence(ctx context.Context, reqs []InfluenceRequest, null NullEmbedding) ([]Influence, error)
}
