// val_kmeans: k-means assignment step in the classic GPU form: 131072 points x 34 float features (k = 5);
// transpose of the point-major input to feature-major (thread per point), thread-per-point nearest-centre
// search, per-block partial centre sums by shared-memory tree reductions, and a one-block combine; 3 iterations.
#define KMAX 8
__device__ __forceinline__ unsigned hashu(unsigned i) { i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16; return i; }
__device__ __forceinline__ float hashf(unsigned i) { return (hashu(i) & 0xffff) * (1.0f / 16384.0f) - 2.0f; }

// point-major input features[p * nfeatures + f]: point p is drawn around one of 5 hash-chosen blobs;
// initial centres are points spread over the set (as the classic code picks them from the input)
extern "C" __global__ void init(float *features, float *clusters, unsigned npoints, unsigned nfeatures, unsigned nclusters)
{
    unsigned n = npoints * nfeatures;
    for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned p = i / nfeatures, f = i - p * nfeatures, g = hashu(p + 0x9e3779b9u) % 5u;
        float centre = (float)(hashu(g * 64u + f + 1000u) & 0xffu) * (1.0f / 64.0f) - 2.0f;
        features[i] = centre + 0.5f * hashf(i);
    }
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < nclusters * nfeatures) {
        unsigned c = t / nfeatures, f = t - c * nfeatures, p = c * (npoints / nclusters) + 7u;
        unsigned i = p * nfeatures + f, g = hashu(p + 0x9e3779b9u) % 5u;
        float centre = (float)(hashu(g * 64u + f + 1000u) & 0xffu) * (1.0f / 64.0f) - 2.0f;
        clusters[t] = centre + 0.5f * hashf(i);
    }
}

// thread per point: feature-major output[f * npoints + p] = input[p * nfeatures + f]
extern "C" __global__ void invert_mapping(const float *input, float *output, int npoints, int nfeatures)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p < npoints)
        for (int f = 0; f < nfeatures; f++) output[f * npoints + p] = input[p * nfeatures + f];
}

// thread per point: index of the nearest centre (squared Euclidean distance)
extern "C" __global__ void kmeans_assign(const float *__restrict__ features, const float *__restrict__ clusters, int *membership,
                                         int npoints, int nclusters, int nfeatures)
{
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= npoints) return;
    int index = -1;
    float min_dist = 3.402823466e38f;
    for (int c = 0; c < nclusters; c++) {
        float dist = 0.0f;
        for (int f = 0; f < nfeatures; f++) {
            float d = features[f * npoints + p] - clusters[c * nfeatures + f];
            dist += d * d;
        }
        if (dist < min_dist) { min_dist = dist; index = c; }
    }
    membership[p] = index;
}

// block of 256 threads over 256*ppt points: per feature, per-thread sums per cluster, then one shared-memory
// tree per cluster; psum[(block * nclusters + c) * nfeatures + f], pcount[block * nclusters + c]
extern "C" __global__ void kmeans_partial(const float *__restrict__ features, const int *__restrict__ membership, float *psum,
                                          int *pcount, int npoints, int nclusters, int nfeatures, int ppt)
{
    __shared__ float sh[KMAX][256];
    __shared__ int cnt[KMAX];
    int tid = threadIdx.x, base = blockIdx.x * blockDim.x * ppt + tid;
    if (tid < nclusters) cnt[tid] = 0;
    __syncthreads();
    for (int j = 0; j < ppt; j++) {
        int p = base + j * blockDim.x;
        if (p < npoints) atomicAdd(&cnt[membership[p]], 1);
    }
    for (int f = 0; f < nfeatures; f++) {
        float acc[KMAX];
        for (int c = 0; c < KMAX; c++) acc[c] = 0.0f;
        for (int j = 0; j < ppt; j++) {
            int p = base + j * blockDim.x;
            if (p < npoints) {
                int m = membership[p];
                float x = features[f * npoints + p];
                for (int c = 0; c < KMAX; c++) acc[c] += (m == c) ? x : 0.0f;
            }
        }
        for (int c = 0; c < KMAX; c++)
            if (c < nclusters) sh[c][tid] = acc[c];
        __syncthreads();
        for (int s = blockDim.x / 2; s > 0; s >>= 1) {
            if (tid < s)
                for (int c = 0; c < nclusters; c++) sh[c][tid] += sh[c][tid + s];
            __syncthreads();
        }
        if (tid < nclusters) psum[(blockIdx.x * nclusters + tid) * nfeatures + f] = sh[tid][0];
        __syncthreads();
    }
    if (tid < nclusters) pcount[blockIdx.x * nclusters + tid] = cnt[tid];
}

// one block: new centre = (sum over blocks of the partial sums, in block order) / count; empty clusters keep the old centre
extern "C" __global__ void kmeans_combine(const float *__restrict__ psum, const int *__restrict__ pcount, const float *__restrict__ old_clusters,
                                          float *new_clusters, int nblocks, int nclusters, int nfeatures)
{
    __shared__ int cnt[KMAX];
    int t = threadIdx.x;
    if (t < nclusters) {
        int s = 0;
        for (int b = 0; b < nblocks; b++) s += pcount[b * nclusters + t];
        cnt[t] = s;
    }
    __syncthreads();
    int nv = nclusters * nfeatures;
    for (int i = t; i < nv; i += blockDim.x) {
        float s = 0.0f;
        for (int b = 0; b < nblocks; b++) s += psum[b * nv + i];
        int c = i / nfeatures;
        new_clusters[i] = cnt[c] > 0 ? s / (float)cnt[c] : old_clusters[i];
    }
}
