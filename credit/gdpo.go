package credit

func init() { Register("gdpo", newGDPO) }

func newGDPO(c Config) (Method, error) {
	if err := c.validateEps(); err != nil {
		return nil, err
	}
	return &placed{name: "gdpo", c: c}, nil
}

// gdpoResult is GDPO's response level (ALGORITHMS.md §1):
//
//	A[k,i] = (r[k,i] − mean_group r[k]) / (std_group r[k] + ε)
//	S[i]   = Σ_k c[k]·A[k,i]
//	Â[i]   = (S[i] − mean_batch S) / (std_batch S + ε)
//
// Each reward is normalized on its own, so a reward with no variance in a
// group gives exactly 0 there whatever the others do.
type gdpoResult struct {
	a     [][]float64 // A[k,i]      [K][N]
	s     []float64   // S[i]        [N]
	mean  float64     // mean_batch S
	denom float64     // std_batch S + ε
	hat   []float64   // Â[i]        [N]
}

func gdpoResponse(v *view, eps float64) gdpoResult {
	res := gdpoResult{a: make([][]float64, v.k), s: make([]float64, v.n), hat: make([]float64, v.n)}
	for k := range v.k {
		a := make([]float64, v.n)
		for _, g := range v.groups {
			if !v.varies[k][g[0]] {
				continue
			}
			mean, std := normMeanStd(v.r[k], g)
			for _, i := range g {
				a[i] = (v.r[k][i] - mean) / (std + eps)
			}
		}
		res.a[k] = a
	}
	for i := range res.s {
		var s float64
		for k := range v.k {
			// The conversion rounds the product, as the token sum does,
			// so that β = 0 reproduces Â bit for bit (no fused multiply-add).
			s += float64(v.c[k] * res.a[k][i])
		}
		res.s[i] = s
	}
	mean, std := normMeanStd(res.s, nil)
	if v.n > 0 && allEqual(res.s, allIndices(v.n)) {
		// No spread at all (every reward cancels out): take std 1, as for a
		// single value, so that placement does not blow up by 1/ε.
		std = 1
	}
	res.mean, res.denom = mean, std+eps
	for i, s := range res.s {
		res.hat[i] = (s - mean) / res.denom
	}
	return res
}

func allIndices(n int) []int {
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	return idx
}
