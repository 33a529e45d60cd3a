// Package reftest holds the helpers shared by the tests that compare
// credo's numbers with the PyTorch reference fixtures in
// model/testdata/reference (scripts/reference.py writes them): model's
// forward and gradient tests, the transformers fixtures' test and optim's
// AdamW test; and Golden, the digest file that credit's and service's
// golden tests pin their outputs with. It imports only the standard
// library.
package reftest
