// Command credo trains language models with reinforcement learning against
// several verifiable rewards, giving each reward's credit to the tokens
// that earned it. Run `credo help` for the commands.
//
// Its flag layer, which knows nothing of training, is internal/cli; the
// tables of credo's settings and its own flag types stay here.
//
// It is the top of the house: it may import any package; none imports it.
//
// credo is built from its repository (make build, make install): go.mod's
// replace binds GoMLX's pure-Go backend to the copy patched in
// third_party/compute (its kernels and a fault fix), and a replace applies
// only in the main module, so `go get` of credo's packages into another
// module builds them against the unpatched upstream gomlx/compute (and `go
// install …@version` refuses the module). The packages that need no GoMLX
// (credit, reward, task, service and others) say so in their docs.
package main
