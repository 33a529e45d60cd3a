package model

import (
	"fmt"
	"math"
)

// RopeScaling is HF's rope_scaling of rope_type "llama3" (Llama 3.1 and
// later): rotary frequencies with a wavelength longer than
// original_max_position_embeddings / low_freq_factor are divided by
// factor, those shorter than original_max_position_embeddings /
// high_freq_factor are kept, and those between are interpolated.
type RopeScaling struct {
	RopeType                      string  `json:"rope_type"` // "llama3"
	Factor                        float64 `json:"factor"`
	LowFreqFactor                 float64 `json:"low_freq_factor"`
	HighFreqFactor                float64 `json:"high_freq_factor"`
	OriginalMaxPositionEmbeddings int     `json:"original_max_position_embeddings"`
}

func (r RopeScaling) validate() error {
	switch {
	case r.RopeType != "llama3":
		return fmt.Errorf("rope_scaling rope_type %q is not supported (credo implements default and llama3)", r.RopeType)
	case r.Factor <= 0 || r.LowFreqFactor <= 0 || r.OriginalMaxPositionEmbeddings <= 0:
		return fmt.Errorf("rope_scaling llama3: factor, low_freq_factor and original_max_position_embeddings must be positive")
	case r.HighFreqFactor <= r.LowFreqFactor:
		return fmt.Errorf("rope_scaling llama3: high_freq_factor (%g) must exceed low_freq_factor (%g)", r.HighFreqFactor, r.LowFreqFactor)
	}
	return nil
}

// invFreq returns the rotary frequencies ω_i = θ^(−2i/E), i < E/2, as HF's
// default rotary embedding computes them, rescaled as HF's
// _compute_llama3_parameters does for rope_type llama3: with wavelength
// λ_i = 2π/ω_i and L = original_max_position_embeddings,
// ω_i/factor if λ_i > L/low_freq_factor, ω_i if λ_i < L/high_freq_factor,
// else (1−s)·ω_i/factor + s·ω_i with s = (L/λ_i − low)/(high − low).
func (c Config) invFreq() []float64 {
	E := c.headDim()
	inv := make([]float64, E/2)
	for i := range inv {
		inv[i] = 1 / math.Pow(c.RopeTheta, float64(2*i)/float64(E))
	}
	r := c.RopeScaling
	if r == nil {
		return inv
	}
	L := float64(r.OriginalMaxPositionEmbeddings)
	lowWave, highWave := L/r.LowFreqFactor, L/r.HighFreqFactor
	for i, w := range inv {
		wave := 2 * math.Pi / w
		switch {
		case wave < highWave: // high frequencies: kept
		case wave > lowWave:
			inv[i] = w / r.Factor
		default:
			s := (L/wave - r.LowFreqFactor) / (r.HighFreqFactor - r.LowFreqFactor)
			inv[i] = (1-s)*w/r.Factor + s*w
		}
	}
	return inv
}
