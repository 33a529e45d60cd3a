// peak.c measures this machine's float32 peak: independent AVX2 FMA chains
// (or AVX-512 where the CPU has it) on every core, no memory traffic.
// Build and run: scripts/peak.sh
#include <immintrin.h>
#include <omp.h>
#include <stdio.h>

#define ITERS 200000000L

int main(void) {
  double best = 0;
  for (int rep = 0; rep < 5; rep++) {
    double t0 = omp_get_wtime();
    float sink = 0;
    int threads = 1;
#pragma omp parallel reduction(+ : sink)
    {
#pragma omp single
      threads = omp_get_num_threads();
#ifdef __AVX512F__
      __m512 a[12], b = _mm512_set1_ps(0.999f), c = _mm512_set1_ps(0.001f);
      for (int i = 0; i < 12; i++) a[i] = _mm512_set1_ps((float)i);
      for (long it = 0; it < ITERS / 16; it++)
        for (int i = 0; i < 12; i++) a[i] = _mm512_fmadd_ps(a[i], b, c);
      for (int i = 0; i < 12; i++) sink += _mm512_reduce_add_ps(a[i]);
#else
      __m256 a[12], b = _mm256_set1_ps(0.999f), c = _mm256_set1_ps(0.001f);
      for (int i = 0; i < 12; i++) a[i] = _mm256_set1_ps((float)i);
      for (long it = 0; it < ITERS / 8; it++)
        for (int i = 0; i < 12; i++) a[i] = _mm256_fmadd_ps(a[i], b, c);
      float out[8];
      for (int i = 0; i < 12; i++) {
        _mm256_storeu_ps(out, a[i]);
        for (int j = 0; j < 8; j++) sink += out[j];
      }
#endif
    }
    double sec = omp_get_wtime() - t0;
    double flops = 2.0 * 12 * ITERS * threads;
    double g = flops / sec / 1e9;
    if (g > best) best = g;
    fprintf(stderr, "run %d: %.1f GFLOP/s on %d threads (sink %g)\n", rep, g, threads, sink);
  }
  printf("peak float32: %.0f GFLOP/s\n", best);
  return 0;
}
