// Run-time-bounded loops: which nvcc unrolls, how (the SASS: run_unroll_probe.sh)
// p1: scalarProdGPU's pos loop
__global__ void p1_prolog(float *c, const float *a, const float *b, int base, int end) {
  float s = 0;
  for (int pos = base + threadIdx.x; pos < end; pos += 1024) s += a[pos] * b[pos];
  c[threadIdx.x] = s;
}
// p2: the same, counted from 0
__global__ void p2_zero(float *c, const float *a, const float *b, int n) {
  float s = 0;
  for (int k = 0; k < n; k++) s += a[k * 1024 + threadIdx.x] * b[k * 1024 + threadIdx.x];
  c[threadIdx.x] = s;
}
// p3: an int accumulator from 0
__global__ void p3_intacc(int *c, const int *a, int base, int end) {
  int s = 0;
  for (int pos = base + threadIdx.x; pos < end; pos += 1024) s += a[pos];
  c[threadIdx.x] = s;
}
// p4: a bigger body: six loads a trip
__global__ void p4_big(float *c, const float *a, const float *b, const float *d, int base, int end) {
  float s = 0;
  for (int pos = base + threadIdx.x; pos < end; pos += 1024)
    s += a[pos] * b[pos] + d[pos] * a[pos + 4096] + b[pos + 4096] * d[pos + 4096];
  c[threadIdx.x] = s;
}
// p5: a grid-stride loop (run-time step)
__global__ void p5_gridstride(float *o, const float *in, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) o[i] = in[i] * 2.f;
}
// p6: a barrier in the body (convergent)
__global__ void p6_sync(float *o, const float *in, int n) {
  __shared__ float t[256];
  float s = 0;
  for (int k = threadIdx.x; k < n; k += 256) { t[threadIdx.x] = in[k]; __syncthreads(); s += t[255 - threadIdx.x]; __syncthreads(); }
  o[threadIdx.x] = s;
}
// p7: a copy loop
__global__ void p7_copy(float *o, const float *in, int base, int end) {
  for (int i = base + threadIdx.x; i < end; i += 256) o[i] = in[i] * 2.f;
}
// p8: constant end
__global__ void p8_constend(float *c, const float *a, const float *b) {
  float s = 0;
  for (int pos = threadIdx.x; pos < 4096; pos += 1024) s += a[pos] * b[pos];
  c[threadIdx.x] = s;
}
