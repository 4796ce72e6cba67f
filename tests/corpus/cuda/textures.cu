// Texture and surface objects (bindless, .u64 handles): tex.1d/2d/3d/a2d/cube
// with float and int coordinates, level/grad variants, tld4 (gather),
// suld/sust with .trap/.clamp/.zero, txq/suq via inline asm.
#include <cuda_runtime.h>

extern "C" __global__ void tex_fetch(cudaTextureObject_t t1, cudaTextureObject_t t2,
                                     cudaTextureObject_t t3, cudaTextureObject_t tl,
                                     cudaTextureObject_t tc, cudaTextureObject_t ti,
                                     float4 *out, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    float u = (x + 0.5f) / w, v = (y + 0.5f) / w;
    float4 r = tex2D<float4>(t2, u, v);
    float a = tex1Dfetch<float>(t1, x);
    float b = tex1D<float>(t1, u);
    float4 c = tex3D<float4>(t3, u, v, 0.5f);
    float d = tex2DLayered<float>(tl, u, v, y & 3);
    float4 e = texCubemap<float4>(tc, u, v, 1.0f);
    float4 f = tex2DLod<float4>(t2, u, v, 1.5f);
    float4 g = tex2DGrad<float4>(t2, u, v, make_float2(0.01f, 0.0f), make_float2(0.0f, 0.01f));
    float4 h = tex2Dgather<float4>(t2, u, v, 1);
    int4 k = tex1Dfetch<int4>(ti, x);
    uchar4 m = tex2D<uchar4>(ti, u, v);
    out[y * w + x] = make_float4(r.x + a + b + c.y + d + e.z + f.w + g.x + h.y,
                                 (float)k.x + (float)m.w, r.z, r.w);
}

extern "C" __global__ void surf_rw(cudaSurfaceObject_t s1, cudaSurfaceObject_t s2,
                                   cudaSurfaceObject_t s3, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y;
    if (x >= w || y >= h)
        return;
    float4 p = surf2Dread<float4>(s2, x * (int)sizeof(float4), y);
    float q = surf2Dread<float>(s1, x * 4, y, cudaBoundaryModeClamp);
    int z = surf2Dread<int>(s1, x * 4, y, cudaBoundaryModeZero);
    surf2Dwrite(make_float4(p.w, p.z, p.y, p.x + q), s2, x * (int)sizeof(float4), y);
    surf1Dwrite(z + 1, s1, x * 4, cudaBoundaryModeTrap);
    float4 l = surf3Dread<float4>(s3, x * 16, y, 0);
    surf3Dwrite(l, s3, x * 16, y, 1, cudaBoundaryModeClamp);
    short2 sv = surf2Dread<short2>(s1, x * 4, y);
    surf2Dwrite(make_short2(sv.y, sv.x), s1, x * 4, y);
}

extern "C" __global__ void tex_query(cudaTextureObject_t t, cudaSurfaceObject_t s, int *out)
{
    int wdt, hgt, dep, fmt, levels, sw, sh;
    asm("txq.width.b32 %0, [%1];" : "=r"(wdt) : "l"(t));
    asm("txq.height.b32 %0, [%1];" : "=r"(hgt) : "l"(t));
    asm("txq.depth.b32 %0, [%1];" : "=r"(dep) : "l"(t));
    asm("txq.channel_data_type.b32 %0, [%1];" : "=r"(fmt) : "l"(t));
    asm("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(levels) : "l"(t));
    asm("suq.width.b32 %0, [%1];" : "=r"(sw) : "l"(s));
    asm("suq.height.b32 %0, [%1];" : "=r"(sh) : "l"(s));
    float4 r;
    asm("tex.2d.v4.f32.s32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
        : "=f"(r.x), "=f"(r.y), "=f"(r.z), "=f"(r.w) : "l"(t), "r"(1), "r"(2));
    int4 q;
    asm("tld4.g.2d.v4.s32.f32 {%0, %1, %2, %3}, [%4, {%5, %6}];"
        : "=r"(q.x), "=r"(q.y), "=r"(q.z), "=r"(q.w) : "l"(t), "f"(0.5f), "f"(0.5f));
    unsigned v;
    asm volatile("suld.b.2d.b32.trap {%0}, [%1, {%2, %3}];" : "=r"(v) : "l"(s), "r"(0), "r"(0));
    asm volatile("sust.b.2d.b32.clamp [%0, {%1, %2}], {%3};" :: "l"(s), "r"(4), "r"(0), "r"(v) : "memory");
    asm volatile("sust.p.2d.b32.trap [%0, {%1, %2}], {%3};" :: "l"(s), "r"(8), "r"(0), "r"(v) : "memory");
    out[0] = wdt;
    out[1] = hgt;
    out[2] = dep;
    out[3] = fmt;
    out[4] = levels;
    out[5] = sw + sh;
    out[6] = __float_as_int(r.x + r.w) ^ q.x ^ q.w;
}
