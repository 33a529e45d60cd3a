// The machine's memory read bandwidth: every thread sums its share of a
// 1 GiB float32 array (larger than any cache) with 8-wide vector adds, best
// of five passes, in GB/s. A decode step reads every weight once, so this,
// beside scripts/peak.c's FMA peak, bounds sampling: bytes of weights per
// step over it is the fastest a step can be.
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <immintrin.h>

int main(void) {
	const size_t n = (size_t)1 << 28; // 1 GiB of float32
	float *a = aligned_alloc(64, n * sizeof(float));
	if (!a) return 1;
#pragma omp parallel for
	for (size_t i = 0; i < n; i++) a[i] = (float)(i & 7);
	double best = 0, sink = 0;
	for (int pass = 0; pass < 5; pass++) {
		double t0 = omp_get_wtime();
		float total = 0;
#pragma omp parallel reduction(+ : total)
		{
			__m256 s0 = _mm256_setzero_ps(), s1 = s0, s2 = s0, s3 = s0;
#pragma omp for
			for (size_t i = 0; i < n; i += 32) {
				s0 = _mm256_add_ps(s0, _mm256_load_ps(a + i));
				s1 = _mm256_add_ps(s1, _mm256_load_ps(a + i + 8));
				s2 = _mm256_add_ps(s2, _mm256_load_ps(a + i + 16));
				s3 = _mm256_add_ps(s3, _mm256_load_ps(a + i + 24));
			}
			__m256 s = _mm256_add_ps(_mm256_add_ps(s0, s1), _mm256_add_ps(s2, s3));
			float v[8];
			_mm256_storeu_ps(v, s);
			for (int j = 0; j < 8; j++) total += v[j];
		}
		double dt = omp_get_wtime() - t0;
		sink += total;
		double gbs = n * sizeof(float) / dt / 1e9;
		if (gbs > best) best = gbs;
	}
	printf("%.1f\n", best);
	fprintf(stderr, "checksum %g\n", sink);
	free(a);
	return 0;
}
