// Package service is credo serve: credo's verifiers and token-level credit
// over HTTP and JSON, versioned under /v1, for trainers that are not
// credo's own (verl, TRL, prime-rl, slime, SkyRL, OpenRLHF). It is
// stateless: a request carries its batch, and credit is computed by the
// same functions credo's trainer calls (credit.New(method).Advantages), so
// the answers are credo's bit for bit. docs/SERVICE.md is the wire format.
//
// Endpoints: GET /healthz, GET /metrics (Prometheus text), GET /v1/methods,
// GET /v1/tasks, POST /v1/prompts (credo's generated prompts), POST
// /v1/verify (records of public datasets, or generated prompts by id, and
// responses in; per-reward verdicts out), POST /v1/advantages (a batch in,
// per-token advantages, relevance and credo's diagnostics out) and POST
// /v1/replay-plan (the prompts MRTPO needs a trainer's engine to score,
// whose top-k log-probs then come back to /v1/advantages).
//
// Requests are read by service/wire's Decoder, field by field as the
// schema written here asks (every error names its field's path, and
// becomes the API's 400 or 413 in decodeObject alone), and answers are
// written by its Writer, both several times faster than encoding/json on
// batches of a million tokens. The JSON is wire's; the keys, the limits
// and what they mean are this package's.
//
// It may import credit, reward, task (and the task packages only through
// task's registry) and service/wire; not rl, model or anything that holds
// a policy.
// A PRM and the sql records' folder come in through Options.
//
// It needs no GoMLX (go list -deps names none), so another module may
// import it as a library: credo itself is built from its repository,
// whose go.mod replace binds the patched GoMLX backend (third_party/compute)
// in credo's own module only.
package service
