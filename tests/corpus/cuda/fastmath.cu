// Compiled with -use_fast_math: approximate transcendental instructions
// (sin.approx, ex2.approx, lg2.approx, rsqrt.approx, tanh.approx on sm_75+),
// .ftz everywhere, div.approx / div.full.
#include <math.h>

extern "C" __global__ void fast_transcendentals(const float *a, const float *b,
                                                float *o, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    float r = __sinf(x) + __cosf(y) + __tanf(x);
    r += __expf(x) + __exp10f(y) + exp2f(x);
    r += __logf(fabsf(x) + 1.0f) + __log2f(fabsf(y) + 1.0f) + __log10f(fabsf(x) + 2.0f);
    r += __powf(fabsf(x), y);
    r += __frsqrt_rn(fabsf(y) + 1.0f) + rsqrtf(fabsf(x) + 0.5f);
    r += tanhf(x) + sqrtf(fabsf(y));
    r += x / y + __fdividef(y, x) + 1.0f / x;
    r += sinf(y) * cosf(x) + expf(-x * x) + logf(fabsf(y) + 3.0f);
    float s, c;
    __sincosf(x, &s, &c);
    r += s - c;
    r += __saturatef(r * 0.001f);
    o[i] = r;
}

extern "C" __global__ void softmax_row(const float *in, float *out, int cols)
{
    extern __shared__ float red[];
    const float *row = in + blockIdx.x * cols;
    float *orow = out + blockIdx.x * cols;
    float m = -INFINITY;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        m = fmaxf(m, row[c]);
    red[threadIdx.x] = m;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + s]);
        __syncthreads();
    }
    m = red[0];
    __syncthreads();
    float sum = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        sum += __expf(row[c] - m);
    red[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    float inv = 1.0f / red[0];
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        orow[c] = __expf(row[c] - m) * inv;
}

extern "C" __global__ void gelu_tanh(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = 0.5f * v * (1.0f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v)));
    }
}

extern "C" __global__ void fast_double(const double *a, double *o, int n)
{
    // -use_fast_math does not affect double; keeps f64 paths (rcp.approx.ftz.f64 in div)
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        o[i] = 1.0 / a[i] + sqrt(a[i]) + exp(a[i]);
}
