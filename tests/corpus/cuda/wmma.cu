// Warp matrix multiply-accumulate through the nvcuda::wmma API:
// f16 (f16/f32 accumulate, all three shapes), bf16 and tf32 (sm_80),
// s8/u8 (sm_72+), f64 m8n8k4 (sm_80), b1 xor/and popc (sm_75 / sm_80),
// sub-byte s4 (experimental), both row/col layouts, global and shared
// fragments with stride.
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

using namespace nvcuda;

extern "C" __global__ void wmma_f16_f32(const half *a, const half *b, const float *c,
                                        float *d, int lda, int ldb, int ldc)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, ldb);
    wmma::load_matrix_sync(fc, c, ldc, wmma::mem_row_major);
    for (int k = 0; k < 4; k++) {
        wmma::mma_sync(fc, fa, fb, fc);
        for (int e = 0; e < fc.num_elements; e++)
            fc.x[e] *= 0.5f;
    }
    wmma::store_matrix_sync(d, fc, ldc, wmma::mem_col_major);
}

extern "C" __global__ void wmma_f16_f16_shapes(const half *a, const half *b, half *d)
{
    __shared__ half sa[32 * 16], sb[16 * 32], sd[32 * 32];
    for (int i = threadIdx.x; i < 32 * 16; i += blockDim.x) {
        sa[i] = a[i];
        sb[i] = b[i];
    }
    __syncthreads();
    // 32x8x16
    wmma::fragment<wmma::matrix_a, 32, 8, 16, half, wmma::col_major> a1;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, half, wmma::row_major> b1;
    wmma::fragment<wmma::accumulator, 32, 8, 16, half> c1;
    wmma::fill_fragment(c1, __float2half(0.0f));
    wmma::load_matrix_sync(a1, sa, 32);
    wmma::load_matrix_sync(b1, sb, 8);
    wmma::mma_sync(c1, a1, b1, c1);
    wmma::store_matrix_sync(sd, c1, 8, wmma::mem_row_major);
    // 8x32x16
    wmma::fragment<wmma::matrix_a, 8, 32, 16, half, wmma::row_major> a2;
    wmma::fragment<wmma::matrix_b, 8, 32, 16, half, wmma::col_major> b2;
    wmma::fragment<wmma::accumulator, 8, 32, 16, float> c2;
    wmma::fragment<wmma::accumulator, 8, 32, 16, half> c2h;
    wmma::fill_fragment(c2, 1.0f);
    wmma::load_matrix_sync(a2, sa, 16);
    wmma::load_matrix_sync(b2, sb, 16);
    wmma::mma_sync(c2, a2, b2, c2);
    wmma::mma_sync(c2h, a2, b2, c2h);
    wmma::store_matrix_sync((float *)(sd + 256), c2, 32, wmma::mem_row_major);
    __syncthreads();
    for (int i = threadIdx.x; i < 32 * 32; i += blockDim.x)
        d[i] = sd[i];
    wmma::store_matrix_sync(d + 1024, c2h, 32, wmma::mem_col_major);
}

extern "C" __global__ void wmma_int8(const signed char *a, const signed char *b,
                                     const unsigned char *ua, const unsigned char *ub,
                                     int *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::matrix_a, 32, 8, 16, unsigned char, wmma::row_major> fua;
    wmma::fragment<wmma::matrix_b, 32, 8, 16, unsigned char, wmma::row_major> fub;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc;
    wmma::fragment<wmma::accumulator, 32, 8, 16, int> fc2;
    wmma::fill_fragment(fc, 0);
    wmma::fill_fragment(fc2, 7);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(fua, ua, 16);
    wmma::load_matrix_sync(fub, ub, 8);
    wmma::mma_sync(fc, fa, fb, fc, true);   // saturating
    wmma::mma_sync(fc2, fua, fub, fc2);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
    wmma::store_matrix_sync(d + 256, fc2, 8, wmma::mem_row_major);
}

extern "C" __global__ void wmma_b1(const unsigned *a, const unsigned *b, int *d)
{
    using namespace wmma::experimental;
    wmma::fragment<wmma::matrix_a, 8, 8, 128, precision::b1, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 128, precision::b1, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 128, int> fc;
    wmma::fill_fragment(fc, 0);
    wmma::load_matrix_sync(fa, a, 128);
    wmma::load_matrix_sync(fb, b, 128);
    wmma::bmma_sync(fc, fa, fb, fc, bmmaBitOpXOR, bmmaAccumulateOpPOPC);
#if __CUDA_ARCH__ >= 800
    wmma::bmma_sync(fc, fa, fb, fc, bmmaBitOpAND, bmmaAccumulateOpPOPC);
#endif
    wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}

extern "C" __global__ void wmma_s4(const int *a, const int *b, int *d)
{
    using namespace wmma::experimental;
    wmma::fragment<wmma::matrix_a, 8, 8, 32, precision::s4, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 32, precision::s4, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 32, int> fc;
    wmma::fill_fragment(fc, 0);
    wmma::load_matrix_sync(fa, a, 32);
    wmma::load_matrix_sync(fb, b, 32);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}

#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
extern "C" __global__ void wmma_bf16(const __nv_bfloat16 *a, const __nv_bfloat16 *b,
                                     float *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

extern "C" __global__ void wmma_tf32(const float *a, const float *b, float *d)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::fill_fragment(fc, 0.0f);
    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 8);
    for (int i = 0; i < fa.num_elements; i++)
        fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; i++)
        fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_col_major);
}

extern "C" __global__ void wmma_f64(const double *a, const double *b, const double *c,
                                    double *d)
{
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
    wmma::load_matrix_sync(fa, a, 4);
    wmma::load_matrix_sync(fb, b, 4);
    wmma::load_matrix_sync(fc, c, 8, wmma::mem_row_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
}
#endif
