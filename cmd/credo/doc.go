// Command credo trains language models with reinforcement learning against
// several verifiable rewards, giving each reward's credit to the tokens
// that earned it. Run `credo help` for the commands.
//
// Its flag layer, which knows nothing of training, is internal/cli; the
// tables of credo's settings and its own flag types stay here.
//
// It is the top of the house: it may import any package; none imports it.
package main
