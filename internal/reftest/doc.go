// Package reftest holds the helpers shared by the tests that compare
// credo's numbers with the PyTorch reference fixtures in
// model/testdata/reference (scripts/reference.py writes them): model's
// forward and gradient tests and optim's AdamW test. It imports only the
// standard library.
package reftest
