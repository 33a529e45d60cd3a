package credit

// Test helpers for the external tests (package credit_test), which may
// import the packages that import credit (credit/topk).
var (
	TopKBatch    = topKBatch
	HashReplayer = hashReplayer
)

// Dist is the replayer's distributions for one request.
func (f *fakeReplayer) Dist(prompt string, response []int32) [][]float32 {
	return f.dist(prompt, response)
}
