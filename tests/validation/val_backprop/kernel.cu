// val_backprop: one training step, twice, of a 65536-16-1 perceptron in the classic GPU
// form: per-block 16x16 weight slices times inputs reduced over rows in shared memory
// (__powf strides), a one-block kernel summing the partials (sigmoid, output and
// hidden deltas), and the momentum update of all 65537 x 17 input-hidden weights.
#define HEIGHT 16
#define WIDTH 16
#define ETA 0.3f
#define MOMENTUM 0.3f
#define TARGET 0.6f
__device__ __forceinline__ float hash01(unsigned i) { i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16; return (i & 0xffff) * (1.0f / 65536.0f); }
__device__ __forceinline__ float squash(float x) { return 1.0f / (1.0f + __expf(-x)); }
// in: nin+1 inputs in 0..1 (in[0] unused); w: (nin+1) x (hid+1) weights in +-0.01; w2: hid+1 weights in +-0.1
extern "C" __global__ void init(float *in, float *w, float *w2, unsigned nin, unsigned hid)
{
    unsigned nw = (nin + 1) * (hid + 1);
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < nw; i += gridDim.x * blockDim.x) {
        w[i] = (hash01(i + 0x9e3779b9u) - 0.5f) * 0.02f;
        if (i <= nin) in[i] = hash01(i);
        if (i <= hid) w2[i] = (hash01(i + 0x7f4a7c15u) - 0.5f) * 0.2f;
    }
}
// block (0, by) multiplies inputs 16by+1..16by+16 by their 16 x 16 weight slice and sums over the inputs
extern "C" __global__ void layerforward(const float *in, const float *w, float *partial, int nin, int hid)
{
    __shared__ float node[HEIGHT];
    __shared__ float wm[HEIGHT][WIDTH];
    int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_in = HEIGHT * by + ty + 1;
    if (tx == 0) node[ty] = in[index_in];
    __syncthreads();
    wm[ty][tx] = w[index];
    __syncthreads();
    wm[ty][tx] = wm[ty][tx] * node[ty];
    __syncthreads();
    for (int i = 1; i <= __log2f(HEIGHT); i++) {
        int p = __powf(2, i);
        if (ty % p == 0) wm[ty][tx] = wm[ty][tx] + wm[ty + p / 2][tx];
        __syncthreads();
    }
    if (tx == 0) partial[by * hid + ty] = wm[tx][ty];
}
// one block of 256 threads: hidden unit j = sigmoid(bias + sum of the nblk partials), in a fixed order;
// then the output unit, its delta against TARGET, the hidden deltas, and the momentum update of w2
extern "C" __global__ void hidden_sum(const float *partial, const float *w, float *w2, float *oldw2,
                                      float *hidden, float *hdelta, float *out, int nblk)
{
    __shared__ float sh[16][17];
    __shared__ float h[17];
    __shared__ float dout;
    int t = threadIdx.x, j = t & 15, g = t >> 4;
    float s = 0.0f;
    for (int k = g; k < nblk; k += 16) s += partial[k * 16 + j];
    sh[g][j] = s;
    __syncthreads();
    for (int d = 8; d > 0; d >>= 1) {
        if (g < d) sh[g][j] += sh[g + d][j];
        __syncthreads();
    }
    if (t < 16) {
        float v = squash(sh[0][t] + w[t + 1]);
        h[t + 1] = v;
        hidden[t + 1] = v;
    }
    if (t == 16) { h[0] = 1.0f; hidden[0] = 1.0f; }
    __syncthreads();
    if (t == 0) {
        float o = w2[0];
        for (int k = 1; k <= 16; k++) o += w2[k] * h[k];
        o = squash(o);
        float d = o * (1.0f - o) * (TARGET - o);
        out[0] = o;
        out[1] = d;
        dout = d;
    }
    __syncthreads();
    if (t < 17) {
        float wk = w2[t];
        if (t > 0) hdelta[t] = h[t] * (1.0f - h[t]) * wk * dout;
        float dw = ETA * dout * h[t] + MOMENTUM * oldw2[t];
        w2[t] = wk + dw;
        oldw2[t] = dw;
    }
}
// w += ETA * delta_hidden * input + MOMENTUM * old change, for the 16 x 16 slice of block (0, by)
extern "C" __global__ void adjust_weights(const float *delta, int hid, const float *ly, int nin, float *w, float *oldw)
{
    int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
    int index_y = HEIGHT * by + ty + 1;
    int index_x = tx + 1;
    float dw = ETA * delta[index_x] * ly[index_y] + MOMENTUM * oldw[index];
    w[index] += dw;
    oldw[index] = dw;
    __syncthreads();
    if (ty == 0 && by == 0) {  // bias row
        dw = ETA * delta[index_x] + MOMENTUM * oldw[index_x];
        w[index_x] += dw;
        oldw[index_x] = dw;
    }
}
