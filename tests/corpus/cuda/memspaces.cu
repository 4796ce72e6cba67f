// Every state space: global, static and dynamic (extern) shared, local
// arrays indexed dynamically (stack frame: __local_depot / %SP / %SPL),
// __constant__ banks, __device__ globals with initialisers (scalars, arrays,
// structs, pointers to other globals), by-value struct kernel parameters,
// vector loads/stores (v2/v4), volatile and __ldg / __ldcs style cache hints.
#include <stdint.h>

struct Params {
    float scale;
    int offset;
    double bias;
    int lut[6];
    char tag;
    float4 v;
};

struct Node {
    int value;
    const Node *next;
};

__constant__ float c_coeffs[16] = {1.0f, 0.5f, 0.25f, 0.125f, 2.0f, 4.0f, 8.0f, 16.0f,
                                   -1.0f, -0.5f, 3.14159265f, 2.71828183f, 0.0f, 1e-3f, 1e3f, 7.0f};
__constant__ int c_table[4][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}};
__constant__ double c_dbl = 6.02214076e23;
__constant__ uint8_t c_bytes[7] = {0xde, 0xad, 0xbe, 0xef, 1, 2, 3};

__device__ int g_counter = 42;
__device__ long long g_big = -1234567890123ll;
__device__ float g_vec[8] = {0.0f, 1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f};
__device__ short g_shorts[5] = {-1, 2, -3, 4, -5};
__device__ double g_dvec[3] = {1.5, -2.25, 1e-300};
__device__ int *g_ptr = &g_counter;              // pointer to another global
__device__ float *g_vec_mid = &g_vec[4];         // pointer into an array (sym+16)
__device__ const Node g_list2 = {3, nullptr};
__device__ const Node g_list1 = {2, &g_list2};
__device__ const Node g_list0 = {1, &g_list1};   // linked list of globals
__device__ const Node *g_head = &g_list0;
__device__ int g_uninit[32];
__device__ float4 g_f4 = {1.0f, 2.0f, 3.0f, 4.0f};
__device__ const char g_msg[] = "ptxemu";
__device__ const char *g_msgp = g_msg + 2;

static __device__ unsigned g_static_counter = 7;

extern "C" __global__ void by_value_struct(Params p, const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = in[i] * p.scale + (float)(p.offset + p.lut[i % 6]) + (float)p.bias;
    v += p.v.x * p.v.y + p.v.z - p.v.w + (float)p.tag;
    out[i] = v * c_coeffs[i & 15] + (float)c_table[i & 3][(i >> 2) & 3];
}

extern "C" __global__ void static_shared_transpose(const float *in, float *out, int w, int h)
{
    __shared__ float tile[32][33];
    __shared__ int s_flag;
    int x = blockIdx.x * 32 + threadIdx.x;
    int y = blockIdx.y * 32 + threadIdx.y;
    if (threadIdx.x == 0 && threadIdx.y == 0)
        s_flag = 1;
    if (x < w && y < h)
        tile[threadIdx.y][threadIdx.x] = in[y * w + x];
    __syncthreads();
    x = blockIdx.y * 32 + threadIdx.x;
    y = blockIdx.x * 32 + threadIdx.y;
    if (x < h && y < w && s_flag)
        out[y * h + x] = tile[threadIdx.x][threadIdx.y];
}

extern __shared__ unsigned char dyn_smem[];

extern "C" __global__ void dynamic_shared(const int *in, int *out, const double *din,
                                          double *dout, int n)
{
    int *ibuf = (int *)dyn_smem;
    double *dbuf = (double *)(dyn_smem + ((blockDim.x * sizeof(int) + 7) & ~7u));
    unsigned t = threadIdx.x;
    ibuf[t] = in[blockIdx.x * blockDim.x + t];
    dbuf[t] = din[blockIdx.x * blockDim.x + t];
    __syncthreads();
    int acc = 0;
    double dacc = 0.0;
    for (unsigned k = 0; k <= t; k++) {
        acc += ibuf[k];
        dacc += dbuf[k];
    }
    out[blockIdx.x * blockDim.x + t] = acc;
    dout[blockIdx.x * blockDim.x + t] = dacc;
}

__device__ __noinline__ int sum_local(int *arr, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += arr[i] * (i + 1);
    return s;
}

extern "C" __global__ void local_arrays(const int *idx, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int hist[24];
    float fl[9];
    for (int k = 0; k < 24; k++)
        hist[k] = k * i;
    for (int k = 0; k < 9; k++)
        fl[k] = (float)k * 0.5f;
    // dynamically indexed -> must live in .local
    for (int k = 0; k < 16; k++)
        hist[idx[(i + k) % n] % 24] += 1;
    fl[idx[i] % 9] += 1.0f;
    out[i] = sum_local(hist, 24) + (int)fl[idx[(i + 1) % n] % 9];
}

extern "C" __global__ void device_globals(int *out, float *fout, double *dout)
{
    int t = threadIdx.x;
    int v = *g_ptr + g_counter + (int)g_big + g_shorts[t % 5] + (int)g_static_counter;
    for (const Node *p = g_head; p; p = p->next)
        v += p->value;
    v += g_msgp[t & 3] + g_msg[t % 6];
    v += c_bytes[t % 7];
    g_uninit[t & 31] = v;
    out[t] = v;
    fout[t] = g_vec[t & 7] + g_vec_mid[t & 3] + g_f4.x + g_f4.w;
    dout[t] = g_dvec[t % 3] * c_dbl;
    if (t == 0) {
        g_counter = v;
        g_static_counter++;
    }
}

extern "C" __global__ void vector_access(const float4 *a, const int2 *b, const double2 *c,
                                         float4 *oa, int2 *ob, double2 *oc,
                                         const short4 *d, uchar4 *oe, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 x = a[i];
    int2 y = b[i];
    double2 z = c[i];
    short4 s = d[i];
    oa[i] = make_float4(x.w, x.z + 1.0f, x.y * 2.0f, x.x);
    ob[i] = make_int2(y.y, y.x ^ s.x);
    oc[i] = make_double2(z.y, z.x + (double)s.w);
    oe[i] = make_uchar4((unsigned char)s.x, (unsigned char)s.y, (unsigned char)s.z, 255);
}

extern "C" __global__ void cache_hints(const float *__restrict__ a, const float *b,
                                       float *c, volatile int *flag, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float v = __ldg(&a[i]) + __ldcg(&b[i]) + __ldca(&b[i]) + __ldcs(&b[i]) + __ldlu(&b[i]) + __ldcv(&b[i]);
    float4 v4 = __ldg((const float4 *)a + (i >> 2));
    v += v4.x + v4.y + v4.z + v4.w;
    __stwb(&c[i], v);
    __stcg(&c[i + n], v * 2.0f);
    __stcs(&c[i + 2 * n], v * 3.0f);
    __stwt(&c[i + 3 * n], v * 4.0f);
    if (i == 0) {
        while (*flag == 0)
            ;
        *flag = 2;
    }
}

extern "C" __global__ void generic_pointers(int sel, float *gptr, float *out)
{
    __shared__ float sbuf[64];
    float lbuf[4];
    sbuf[threadIdx.x & 63] = (float)threadIdx.x;
    for (int k = 0; k < 4; k++)
        lbuf[k] = (float)(k + sel);
    __syncthreads();
    float *p;
    if (sel == 0)
        p = gptr;
    else if (sel == 1)
        p = sbuf;
    else
        p = lbuf;
    // generic loads through an unknown pointer
    float v = p[threadIdx.x & 3];
    out[threadIdx.x] = v + (__isShared(p) ? 1.0f : 0.0f) + (__isGlobal(p) ? 2.0f : 0.0f)
                     + (__isLocal(p) ? 4.0f : 0.0f) + (__isConstant(p) ? 8.0f : 0.0f);
    out[blockDim.x + threadIdx.x] = (float)__cvta_generic_to_shared(sbuf);
}
