/* cudart/drv_launch.c - cuLaunchKernel and its relatives: the launch's
 * checks (the errors CUDA returns from the launch call itself) and the
 * kernel parameter bytes, then the work goes to its stream (drv_submit). */
#include <stdlib.h>
#include <string.h>
#include "cudart/drv.h"

/* Parameter bytes from kernelParams (one pointer per parameter) or from
 * extra (CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE). */
static CUresult build_params(const isa_func *k, void **params, void **extra, uint8_t **out, uint32_t *outlen) {
  uint64_t size = 0;
  for (uint32_t i = 0; i < k->nparams; i++) {
    const isa_sym *s = &k->syms[k->nrets + i];
    if (s->offset + s->size > size) size = s->offset + s->size;
  }
  if (size > 32764) return CUDA_ERROR_INVALID_VALUE;
  uint8_t *p = calloc(1, size ? size : 1);
  if (!p) return CUDA_ERROR_OUT_OF_MEMORY;
  if (extra) {
    void *buf = NULL;
    size_t *bsize = NULL;
    for (int i = 0; extra[i] != CU_LAUNCH_PARAM_END; i += 2) {
      if (extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER) buf = extra[i + 1];
      else if (extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE) bsize = extra[i + 1];
      else { free(p); return CUDA_ERROR_INVALID_VALUE; }
    }
    if (!buf || !bsize || *bsize < size) { free(p); return CUDA_ERROR_INVALID_VALUE; }
    memcpy(p, buf, size);
  } else if (k->nparams) {
    if (!params) { free(p); return CUDA_ERROR_INVALID_VALUE; }
    for (uint32_t i = 0; i < k->nparams; i++) {
      const isa_sym *s = &k->syms[k->nrets + i];
      if (!params[i]) { free(p); return CUDA_ERROR_INVALID_VALUE; }
      memcpy(p + s->offset, params[i], s->size);
    }
  }
  *out = p;
  *outlen = (uint32_t)size;
  return CUDA_SUCCESS;
}

CUresult drv_kernel_op(struct CUfunc_st *f, const uint32_t grid[3], const uint32_t block[3], uint32_t shared,
                       void **params, void **extra, drv_op *op) {
  if (!f) return CUDA_ERROR_INVALID_HANDLE;
  const isa_func *k = &f->mod->m->funcs[f->func];
  const gpu_config *c = &drv.cfg;
  uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
  if (!grid[0] || !grid[1] || !grid[2] || !threads || grid[0] > 0x7fffffffu || grid[1] > 65535 || grid[2] > 65535 ||
      block[0] > 1024 || block[1] > 1024 || block[2] > 64 || threads > c->max_threads_per_cta)
    return CUDA_ERROR_INVALID_VALUE;
  if (shared > f->max_dyn_shared || k->shared_bytes + shared > c->shared_per_cta) return CUDA_ERROR_INVALID_VALUE;
  /* a block larger than the register file holds, or than .maxntid allows */
  gpu_occupancy o;
  gpu_occupancy_calc(c, (uint32_t)threads, k->regs_used, (uint32_t)(k->shared_bytes + shared), &o);
  if (o.error) return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  if (k->perf.n_maxntid) {
    uint64_t p = 1;
    for (int i = 0; i < k->perf.n_maxntid; i++) p *= k->perf.maxntid[i] ? k->perf.maxntid[i] : 1;
    if (threads > p) return CUDA_ERROR_INVALID_VALUE;
  }
  if (k->perf.n_reqntid) {
    for (int i = 0; i < 3; i++) {
      uint32_t want = i < k->perf.n_reqntid ? k->perf.reqntid[i] : 1;
      if (want && block[i] != want) return CUDA_ERROR_INVALID_VALUE;
    }
  }
  memset(op, 0, sizeof *op);
  op->kind = OP_KERNEL;
  op->f = f;
  memcpy(op->grid, grid, sizeof op->grid);
  memcpy(op->block, block, sizeof op->block);
  op->shared = shared;
  /* a cluster shape from the kernel (.reqnctapercluster) or its attribute */
  for (int i = 0; i < 3; i++) {
    op->cluster[i] = i < k->perf.n_reqnctapercluster ? k->perf.reqnctapercluster[i] : f->cluster[i];
    if (!op->cluster[i]) op->cluster[i] = 1;
    if (grid[i] % op->cluster[i]) return CUDA_ERROR_INVALID_CLUSTER_SIZE;
  }
  return build_params(k, params, extra, &op->params, &op->param_size);
}

CUresult drv_launch_attrs(drv_op *op, const CUlaunchAttribute *attrs, unsigned n) {
  for (unsigned i = 0; i < n; i++) {
    const CUlaunchAttribute *a = &attrs[i];
    switch (a->id) {
    case CU_LAUNCH_ATTRIBUTE_IGNORE: case CU_LAUNCH_ATTRIBUTE_PRIORITY:
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE: break;
    case CU_LAUNCH_ATTRIBUTE_COOPERATIVE: op->cooperative = a->value.cooperative != 0; break;
    case CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION: {
      unsigned d[3] = { a->value.clusterDim.x, a->value.clusterDim.y, a->value.clusterDim.z };
      for (int k = 0; k < 3; k++) {
        if (!d[k] || op->grid[k] % d[k]) return CUDA_ERROR_INVALID_CLUSTER_SIZE;
        op->cluster[k] = d[k];
      }
      if ((uint64_t)d[0] * d[1] * d[2] > 16) return CUDA_ERROR_INVALID_CLUSTER_SIZE;
      break;
    }
    default:
      fprintf(stderr, "ptxemu: launch attribute %d is not supported (ignored)\n", a->id);
      break;
    }
  }
  return CUDA_SUCCESS;
}

/* A cooperative grid must be resident at once (all its blocks on the GPU). */
static CUresult check_cooperative(const drv_op *op) {
  const isa_func *k = &op->f->mod->m->funcs[op->f->func];
  gpu_occupancy o;
  uint32_t threads = op->block[0] * op->block[1] * op->block[2];
  gpu_occupancy_calc(&drv.cfg, threads, k->regs_used, (uint32_t)(k->shared_bytes + op->shared), &o);
  uint64_t blocks = (uint64_t)op->grid[0] * op->grid[1] * op->grid[2];
  if (blocks > (uint64_t)o.active_ctas * drv.cfg.sms) return CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE;
  return CUDA_SUCCESS;
}

static CUresult launch(CUfunction f, const uint32_t grid[3], const uint32_t block[3], unsigned shared, CUstream s,
                       void **params, void **extra, const CUlaunchAttribute *attrs, unsigned nattrs, bool cooperative) {
  CUresult r = drv_enter();
  if (r) return r;
  if (drv.sticky) return drv_leave(drv.sticky);
  drv_op op;
  if ((r = drv_kernel_op(f, grid, block, shared, params, extra, &op))) return drv_leave(r);
  op.cooperative = cooperative;
  if ((r = drv_launch_attrs(&op, attrs, nattrs))) { drv_op_release(&op); return drv_leave(r); }
  if (op.cooperative && (r = check_cooperative(&op))) { drv_op_release(&op); return drv_leave(r); }
  return drv_leave(drv_submit(s, &op));
}

DRV_EXPORT CUresult cuLaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                                   unsigned bz, unsigned shared, CUstream s, void **params, void **extra) {
  uint32_t grid[3] = { gx, gy, gz }, block[3] = { bx, by, bz };
  return launch(f, grid, block, shared, s, params, extra, NULL, 0, false);
}

DRV_EXPORT CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                              unsigned by, unsigned bz, unsigned shared, CUstream s, void **params) {
  uint32_t grid[3] = { gx, gy, gz }, block[3] = { bx, by, bz };
  return launch(f, grid, block, shared, s, params, NULL, NULL, 0, true);
}

DRV_EXPORT CUresult cuLaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **params, void **extra) {
  if (!c || (c->numAttrs && !c->attrs)) return CUDA_ERROR_INVALID_VALUE;
  uint32_t grid[3] = { c->gridDimX, c->gridDimY, c->gridDimZ }, block[3] = { c->blockDimX, c->blockDimY, c->blockDimZ };
  return launch(f, grid, block, c->sharedMemBytes, c->hStream, params, extra, c->attrs, c->numAttrs, false);
}
