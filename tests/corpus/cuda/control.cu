// Control flow: recursion (call with .param return values), function
// pointers (indirect call -> .callprototype), a dense switch that -O3
// lowers to brx.idx with a .branchtargets table, noinline functions with
// many/aggregate parameters and returns, loops with early exits, divergent
// nested branches, predication-friendly selects.
#include <stdint.h>

struct Vec3 {
    float x, y, z;
};

struct Big {
    int a[5];
    double d;
};

__device__ __noinline__ int fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

__device__ __noinline__ unsigned long long ackermann_like(unsigned m, unsigned long long n)
{
    if (m == 0)
        return n + 1;
    if (n == 0)
        return ackermann_like(m - 1, 1);
    return ackermann_like(m - 1, ackermann_like(m, n - 1) & 0xff);
}

// mutual recursion
__device__ __noinline__ bool is_odd(unsigned n);
__device__ __noinline__ bool is_even(unsigned n)
{
    return n == 0 ? true : is_odd(n - 1);
}
__device__ __noinline__ bool is_odd(unsigned n)
{
    return n == 0 ? false : is_even(n - 1);
}

__device__ __noinline__ Vec3 cross(Vec3 a, Vec3 b)
{
    Vec3 r = {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
    return r;
}

__device__ __noinline__ Big make_big(int seed, double d, const int *extra)
{
    Big b;
    for (int i = 0; i < 5; i++)
        b.a[i] = seed * (i + 1) + extra[i];
    b.d = d * seed;
    return b;
}

__device__ __noinline__ float many_args(float a, int b, double c, char d, short e,
                                        long long f, unsigned g, float h, const float *p)
{
    return a + (float)b + (float)c + (float)d + (float)e + (float)f + (float)g + h + p[0];
}

extern "C" __global__ void recursion(const int *n, int *out, unsigned long long *out2,
                                     int *out3)
{
    int t = threadIdx.x;
    out[t] = fib(n[t] & 15);
    out2[t] = ackermann_like(n[t] & 1, (unsigned long long)(n[t] & 7));
    out3[t] = is_even((unsigned)n[t] & 63) ? 1 : 0;
}

extern "C" __global__ void aggregates(const float *a, const int *ex, float *out, double *od)
{
    int t = threadIdx.x;
    Vec3 u = {a[3 * t], a[3 * t + 1], a[3 * t + 2]};
    Vec3 v = {a[3 * t + 2], a[3 * t], a[3 * t + 1]};
    Vec3 w = cross(u, v);
    Big b = make_big(t, 0.5, ex);
    out[t] = w.x + w.y + w.z + (float)(b.a[0] + b.a[4]) +
             many_args(u.x, t, 1.5, (char)t, (short)-t, (long long)t << 40, 7u, v.z, a);
    od[t] = b.d;
}

typedef float (*unary_fn)(float);
typedef int (*binop_fn)(int, int);

__device__ __noinline__ float op_sq(float x) { return x * x; }
__device__ __noinline__ float op_neg(float x) { return -x; }
__device__ __noinline__ float op_half(float x) { return x * 0.5f; }
__device__ __noinline__ float op_exp(float x) { return expf(x); }
__device__ __noinline__ int bop_add(int a, int b) { return a + b; }
__device__ __noinline__ int bop_mul(int a, int b) { return a * b; }
__device__ __noinline__ int bop_max(int a, int b) { return a > b ? a : b; }

__device__ unary_fn g_unary[4] = {op_sq, op_neg, op_half, op_exp};
__constant__ binop_fn c_binop[3] = {bop_add, bop_mul, bop_max};

extern "C" __global__ void function_pointers(const float *a, const int *sel, float *out,
                                             int *iout)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    unary_fn f = g_unary[sel[t] & 3];
    float v = f(a[t]);
    binop_fn g = c_binop[(sel[t] >> 2) % 3];
    int acc = 1;
    for (int k = 1; k <= (sel[t] & 7); k++)
        acc = g(acc, k);
    out[t] = v;
    iout[t] = acc;
}

__device__ __noinline__ int apply_twice(binop_fn g, int a, int b)
{
    return g(g(a, b), b);
}

extern "C" __global__ void function_pointer_param(int which, int *out)
{
    binop_fn g = which == 0 ? bop_add : (which == 1 ? bop_mul : bop_max);
    out[threadIdx.x] = apply_twice(g, threadIdx.x, 3);
}

extern "C" __global__ void dense_switch(const int *op, const int *a, const int *b, int *out,
                                        int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    int x = a[i], y = b[i], r;
    switch (op[i]) {
    case 0: r = x + y; break;
    case 1: r = x - y; break;
    case 2: r = x * y; break;
    case 3: r = y ? x / y : 0; break;
    case 4: r = x & y; break;
    case 5: r = x | y; break;
    case 6: r = x ^ y; break;
    case 7: r = x << (y & 31); break;
    case 8: r = x >> (y & 31); break;
    case 9: r = __popc(x) - __popc(y); break;
    case 10: r = min(x, y); break;
    case 11: r = max(x, y); break;
    case 12: r = __clz(x) + y; break;
    case 13: r = __brev(x) ^ y; break;
    case 14: r = abs(x - y); break;
    case 15: r = (x * 3 + y * 5) % 1009; break;
    default: r = -1; break;
    }
    out[i] = r;
}

// a byte-code interpreter: loop + dense switch on opcodes with fallthroughs
extern "C" __global__ void interpreter(const uint8_t *code, int len, const int *input,
                                       int *output)
{
    int stack[16];
    int sp = 0;
    int acc = input[threadIdx.x];
    for (int pc = 0; pc < len; pc++) {
        uint8_t ins = code[pc];
        switch (ins) {
        case 0: stack[sp++ & 15] = acc; break;
        case 1: acc = stack[--sp & 15]; break;
        case 2: acc += stack[(sp - 1) & 15]; break;
        case 3: acc *= 3;
            // fallthrough
        case 4: acc += 1; break;
        case 5: acc = -acc; break;
        case 6: acc >>= 1; break;
        case 7: if (acc & 1) pc++; break;
        case 8: pc = (pc + acc) % len; break;
        case 9: acc ^= 0x5a5a; break;
        case 10: goto done;
        default: acc--; break;
        }
    }
done:
    output[threadIdx.x] = acc + sp;
}

extern "C" __global__ void loops_and_branches(const int *a, int *out, int n)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int acc = 0;
    // search with early exit
    for (int k = 0; k < n; k++) {
        if (a[k] == t) {
            acc = k;
            break;
        }
        if (a[k] < 0)
            continue;
        acc += a[k] & 1;
    }
    // do-while with unknown trip count
    int x = t + 1;
    int steps = 0;
    do {
        x = (x & 1) ? 3 * x + 1 : x >> 1;
        steps++;
    } while (x != 1 && steps < 1000);
    // nested divergent branches
    if (t & 1) {
        if (t & 2)
            acc += 10;
        else
            acc -= 10;
    } else if (t & 4) {
        acc *= 2;
    }
    out[t] = acc + steps + (t > 7 ? t : -t);
}

extern "C" __global__ void __launch_bounds__(256, 2) bounded(float *o)
{
    o[threadIdx.x] = (float)threadIdx.x;
}

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
extern "C" __global__ void __launch_bounds__(128, 1, 4) bounded_cluster(float *o)
{
    o[threadIdx.x] = (float)threadIdx.x * 2.0f;
}
#endif

extern "C" __global__ void __maxnreg__(40) capped_regs(float *o)
{
    o[threadIdx.x] = (float)threadIdx.x * 3.0f;
}

extern "C" __global__ void unrolling(const float *a, float *o, int n)
{
    float s = 0.0f;
#pragma unroll 1
    for (int i = 0; i < n; i++)
        s += a[i];
#pragma unroll 4
    for (int i = 0; i < n; i++)
        s *= a[i];
    o[threadIdx.x] = s;
}
