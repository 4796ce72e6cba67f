// val_bfs: level-synchronous breadth-first search on a random graph of
// 262144 nodes, 8 edges a node (half to nearby nodes, half anywhere): a
// top-down sweep per level (thread per node) and a frontier-queue version.
__device__ __forceinline__ unsigned hashu(unsigned i) { i ^= i >> 16; i *= 0x7feb352du; i ^= i >> 15; i *= 0x846ca68bu; i ^= i >> 16; return i; }
extern "C" __global__ void init(int *adj, int *level, int n)
{
    for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
        for (int k = 0; k < 8; k++) {
            unsigned h = hashu(v * 8 + k);
            adj[v * 8 + k] = k < 4 ? (int)((v + (h & 4095) + 1) % n) : (int)(h % n);
        }
        level[v] = v == 0 ? 0 : -1;
    }
}
extern "C" __global__ void bfs_sweep(const int *adj, int *level, int n, int cur, int *changed)
{
    int v = blockIdx.x * blockDim.x + threadIdx.x;
    if (v >= n || level[v] != cur) return;
    bool any = false;
    for (int k = 0; k < 8; k++) {
        int u = adj[v * 8 + k];
        if (level[u] < 0) { level[u] = cur + 1; any = true; }
    }
    if (any) *changed = 1;
}
// frontier queues: q_in holds *n_in nodes; newly found nodes go to q_out
extern "C" __global__ void bfs_queue(const int *adj, int *level, const int *q_in, const int *n_in, int *q_out, int *n_out, int cur)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= *n_in) return;
    int v = q_in[i];
    for (int k = 0; k < 8; k++) {
        int u = adj[v * 8 + k];
        if (atomicCAS(&level[u], -1, cur + 1) == -1) q_out[atomicAdd(n_out, 1)] = u;
    }
}
extern "C" __global__ void queue_init(int *q, int *nq, int *level, int n)
{
    for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) level[v] = v == 0 ? 0 : -1;
    if (blockIdx.x == 0 && threadIdx.x == 0) { q[0] = 0; *nq = 1; }
}
