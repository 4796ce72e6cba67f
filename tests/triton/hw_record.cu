/* hw_record.cu - plays a launch file of this folder on an NVIDIA GPU and
 * writes the buffer of every "expect NAME FILE MODE" line to OUTDIR/FILE:
 * how the *.out.bin expectations were recorded (see README.md).  Not built
 * by make.  Understands the subset the launch files here use: ptx, buffer
 * (zero, file), texture, tensormap, launch, arg (ptr, u32, texture,
 * tensormap), expect.  The launch file is played twice; a buffer that
 * differs between the two runs is reported (nondeterminism).
 *   nvcc -O2 -o hw_record hw_record.cu -lcuda
 *   ./hw_record softmax.launch OUTDIR */
#include <cuda.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(x) do { CUresult e_ = (x); if (e_ != CUDA_SUCCESS) { const char *s_ = "?"; \
  cuGetErrorName(e_, &s_); fprintf(stderr, "%s:%d: %s: %s\n", path, lineno, #x, s_); exit(2); } } while (0)

enum { MAXB = 64, MAXO = 64, MAXA = 16 };
struct buf { char name[64]; CUdeviceptr d; size_t n; };
struct obj { char name[64]; int tensormap, bad; CUtexObject tex; CUtensorMap map; };
static struct buf bufs[MAXB]; static int nbuf;
static struct obj objs[MAXO]; static int nobj;
static const char *path; static int lineno;
static char dir[4096];

static void die(const char *m, const char *a) { fprintf(stderr, "%s:%d: %s %s\n", path, lineno, m, a ? a : ""); exit(2); }
static struct buf *findbuf(const char *n) {
  for (int i = 0; i < nbuf; i++) if (!strcmp(bufs[i].name, n)) return &bufs[i];
  die("no buffer", n); return NULL;
}
static struct obj *findobj(const char *n) {
  for (int i = 0; i < nobj; i++) if (!strcmp(objs[i].name, n)) return &objs[i];
  die("no object", n); return NULL;
}
static void *slurp(const char *f, size_t *n) {
  char p[8192]; snprintf(p, sizeof p, "%s/%s", dir, f);
  FILE *fp = fopen(p, "rb"); if (!fp) die("cannot open", p);
  fseek(fp, 0, SEEK_END); long len = ftell(fp); fseek(fp, 0, SEEK_SET);
  char *m = (char *)malloc(len + 1); if (fread(m, 1, len, fp) != (size_t)len) die("short read", p);
  m[len] = 0; fclose(fp); *n = len; return m;
}
static int is_mode(const char *t) { return !strcmp(t, "wrap") || !strcmp(t, "clamp") || !strcmp(t, "mirror") || !strcmp(t, "border"); }
static CUaddress_mode amode(const char *t) {
  return !strcmp(t, "wrap") ? CU_TR_ADDRESS_MODE_WRAP : !strcmp(t, "mirror") ? CU_TR_ADDRESS_MODE_MIRROR
       : !strcmp(t, "border") ? CU_TR_ADDRESS_MODE_BORDER : CU_TR_ADDRESS_MODE_CLAMP;
}
static int isnum(const char *t) { return t && (isdigit((unsigned char)t[0]) || t[0] == '-' || t[0] == '.'); }

static void texture(char **tk, int nt) {
  struct obj *o = &objs[nobj++]; snprintf(o->name, sizeof o->name, "%s", tk[1]); o->tensormap = 0; o->bad = 0;
  struct buf *b = findbuf(tk[2]);
  const char *ty = tk[3]; int ch = atoi(tk[4]); int w = atoi(tk[5]); int i = 6; int h = 0;
  if (i < nt && isnum(tk[i])) h = atoi(tk[i++]);
  CUarray_format f = !strcmp(ty, "f32") ? CU_AD_FORMAT_FLOAT : !strcmp(ty, "f16") ? CU_AD_FORMAT_HALF
                   : !strcmp(ty, "u8") ? CU_AD_FORMAT_UNSIGNED_INT8 : !strcmp(ty, "u16") ? CU_AD_FORMAT_UNSIGNED_INT16
                   : !strcmp(ty, "s8") ? CU_AD_FORMAT_SIGNED_INT8 : !strcmp(ty, "s16") ? CU_AD_FORMAT_SIGNED_INT16
                   : CU_AD_FORMAT_UNSIGNED_INT32;
  int esz = !strcmp(ty, "f32") || !strcmp(ty, "u32") ? 4 : !strcmp(ty, "u8") || !strcmp(ty, "s8") ? 1 : 2;
  CUDA_TEXTURE_DESC td; memset(&td, 0, sizeof td);
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = CU_TR_ADDRESS_MODE_CLAMP;
  int read_norm = 0;
  for (; i < nt; i++) {
    if (!strcmp(tk[i], "filter")) td.filterMode = !strcmp(tk[++i], "linear") ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
    else if (!strcmp(tk[i], "normalized")) { if (atoi(tk[++i])) td.flags |= CU_TRSF_NORMALIZED_COORDINATES; }
    else if (!strcmp(tk[i], "read")) read_norm = !strcmp(tk[++i], "normalized");
    else if (!strcmp(tk[i], "border")) { float v = (float)atof(tk[++i]); for (int c = 0; c < 4; c++) td.borderColor[c] = v; }
    else if (!strcmp(tk[i], "addr")) {
      int m = 0;
      while (i + 1 < nt && is_mode(tk[i + 1]) && m < 3 && !(!strcmp(tk[i + 1], "border") && m > 0 && isnum(i + 2 < nt ? tk[i + 2] : NULL))) {
        CUaddress_mode am = amode(tk[++i]);
        for (int d = m; d < 3; d++) td.addressMode[d] = am;
        m++;
        if (am == CU_TR_ADDRESS_MODE_BORDER && i + 1 < nt && !strcmp(tk[i + 1], "border")) break;
      }
    } else die("texture option?", tk[i]);
  }
  if (!read_norm && f != CU_AD_FORMAT_FLOAT && f != CU_AD_FORMAT_HALF) td.flags |= CU_TRSF_READ_AS_INTEGER;
  CUDA_ARRAY_DESCRIPTOR ad; memset(&ad, 0, sizeof ad);
  ad.Width = w; ad.Height = h; ad.Format = f; ad.NumChannels = ch;
  CUarray arr; CK(cuArrayCreate(&arr, &ad));
  CUDA_MEMCPY2D cp; memset(&cp, 0, sizeof cp);
  cp.srcMemoryType = CU_MEMORYTYPE_DEVICE; cp.srcDevice = b->d; cp.srcPitch = (size_t)w * ch * esz;
  cp.dstMemoryType = CU_MEMORYTYPE_ARRAY; cp.dstArray = arr;
  cp.WidthInBytes = (size_t)w * ch * esz; cp.Height = h ? h : 1;
  CK(cuMemcpy2D(&cp));
  CUDA_RESOURCE_DESC rd; memset(&rd, 0, sizeof rd);
  rd.resType = CU_RESOURCE_TYPE_ARRAY; rd.res.array.hArray = arr;
  CK(cuTexObjectCreate(&o->tex, &rd, &td, NULL));
}

static void tensormap(char **tk, int nt) {
  struct obj *o = &objs[nobj++]; snprintf(o->name, sizeof o->name, "%s", tk[1]); o->tensormap = 1; o->bad = 0;
  const char *ty = tk[2]; int rank = atoi(tk[3]); struct buf *b = findbuf(tk[4]);
  cuuint64_t dims[5], strides[5]; cuuint32_t box[5], es[5] = {1, 1, 1, 1, 1};
  CUtensorMapSwizzle sw = CU_TENSOR_MAP_SWIZZLE_NONE;
  int lower[3], upper[3], chans = 0, pixels = 0, im2col = 0;
  for (int i = 5; i < nt; i++) {
    if (!strcmp(tk[i], "dims")) for (int r = 0; r < rank; r++) dims[r] = strtoull(tk[++i], 0, 0);
    else if (!strcmp(tk[i], "strides")) for (int r = 0; r < rank - 1; r++) strides[r] = strtoull(tk[++i], 0, 0);
    else if (!strcmp(tk[i], "box")) for (int r = 0; r < rank; r++) box[r] = (cuuint32_t)atoi(tk[++i]);
    else if (!strcmp(tk[i], "swizzle")) { const char *s = tk[++i];
      sw = !strcmp(s, "128B") ? CU_TENSOR_MAP_SWIZZLE_128B : !strcmp(s, "64B") ? CU_TENSOR_MAP_SWIZZLE_64B
         : !strcmp(s, "32B") ? CU_TENSOR_MAP_SWIZZLE_32B : CU_TENSOR_MAP_SWIZZLE_NONE; }
    else if (!strcmp(tk[i], "lower")) { im2col = 1; for (int r = 0; r < rank - 2; r++) lower[r] = atoi(tk[++i]); }
    else if (!strcmp(tk[i], "upper")) for (int r = 0; r < rank - 2; r++) upper[r] = atoi(tk[++i]);
    else if (!strcmp(tk[i], "channels")) chans = atoi(tk[++i]);
    else if (!strcmp(tk[i], "pixels")) pixels = atoi(tk[++i]);
    else die("tensormap option?", tk[i]);
  }
  CUtensorMapDataType dt = !strcmp(ty, "f16") ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16 : !strcmp(ty, "f32") ? CU_TENSOR_MAP_DATA_TYPE_FLOAT32
                         : CU_TENSOR_MAP_DATA_TYPE_UINT32;
  if (im2col) {
    CUresult e = cuTensorMapEncodeIm2col(&o->map, dt, rank, (void *)b->d, dims, strides, lower, upper, chans, pixels, es,
                               CU_TENSOR_MAP_INTERLEAVE_NONE, sw, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    if (e != CUDA_SUCCESS) { const char *en = "?"; cuGetErrorName(e, &en);
      printf("%s:%d: cuTensorMapEncodeIm2col: %s: its launch is SKIPPED\n", path, lineno, en); o->bad = 1; }
    return;
  }
  CK(cuTensorMapEncodeTiled(&o->map, dt, rank, (void *)b->d, dims, strides, box, es, CU_TENSOR_MAP_INTERLEAVE_NONE,
                            sw, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
}

static int play(const char *outdir, int pass) {
  char line[8192]; FILE *fp = fopen(path, "r"); if (!fp) die("cannot open", path);
  CUmodule mod = 0; CUfunction fn = 0; unsigned g[3], bl[3], sh = 0;
  void *args[MAXA]; unsigned char argmem[MAXA][128] __attribute__((aligned(64))); int na = 0, pending = 0, diffs = 0, skip = 0;
  nbuf = nobj = 0; lineno = 0;
  for (;;) {
    int more = fgets(line, sizeof line, fp) != NULL;
    if (more) { lineno++; char *h = strchr(line, '#'); if (h) *h = 0; }
    char *tk[64]; int nt = 0;
    if (more) for (char *t = strtok(line, " \t\r\n"); t && nt < 64; t = strtok(NULL, " \t\r\n")) tk[nt++] = t;
    if (more && nt == 0) continue;
    if (pending && (!more || strcmp(tk[0], "arg"))) {
      if (!skip) {
        CK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, sh));
        CK(cuLaunchKernel(fn, g[0], g[1], g[2], bl[0], bl[1], bl[2], sh, 0, args, NULL));
        CK(cuCtxSynchronize());
      }
      pending = 0;
    }
    if (!more) break;
    if (!strcmp(tk[0], "ptx")) { size_t n; char *s = (char *)slurp(tk[1], &n); CK(cuModuleLoadData(&mod, s)); free(s); }
    else if (!strcmp(tk[0], "buffer")) {
      struct buf *b = &bufs[nbuf++]; snprintf(b->name, sizeof b->name, "%s", tk[1]); b->n = strtoull(tk[2], 0, 0);
      CK(cuMemAlloc(&b->d, b->n < 16 ? 16 : b->n)); CK(cuMemsetD8(b->d, 0, b->n));
      if (!strcmp(tk[3], "file")) { size_t n; void *m = slurp(tk[4], &n); if (n != b->n) die("size", tk[4]);
        CK(cuMemcpyHtoD(b->d, m, n)); free(m); }
      else if (!strcmp(tk[3], "ramp") && !strcmp(tk[4], "u32")) {   /* ramp u32 START STEP */
        unsigned *m = (unsigned *)malloc(b->n), v = (unsigned)strtoul(tk[5], 0, 0), st = (unsigned)strtoul(tk[6], 0, 0);
        for (size_t i = 0; i < b->n / 4; i++, v += st) m[i] = v;
        CK(cuMemcpyHtoD(b->d, m, b->n / 4 * 4)); free(m); }
      else if (strcmp(tk[3], "zero")) die("buffer fill not supported here (file, ramp u32, zero)", tk[3]);
    } else if (!strcmp(tk[0], "texture")) texture(tk, nt);
    else if (!strcmp(tk[0], "tensormap")) tensormap(tk, nt);
    else if (!strcmp(tk[0], "launch")) {
      CK(cuModuleGetFunction(&fn, mod, tk[1]));
      for (int i = 0; i < 3; i++) { g[i] = atoi(tk[3 + i]); bl[i] = atoi(tk[7 + i]); }
      sh = atoi(tk[11]); na = 0; pending = 1; skip = 0;
    } else if (!strcmp(tk[0], "arg")) {
      unsigned char *m = argmem[na]; args[na++] = m;
      if (!strcmp(tk[1], "ptr")) { char *p = strchr(tk[2], '+'); size_t off = 0; if (p) { *p = 0; off = strtoull(p + 1, 0, 0); }
        CUdeviceptr d = findbuf(tk[2])->d + off; memcpy(m, &d, 8); }
      else if (!strcmp(tk[1], "u32") || !strcmp(tk[1], "s32")) { unsigned v = (unsigned)strtoul(tk[2], 0, 0); memcpy(m, &v, 4); }
      else if (!strcmp(tk[1], "texture")) { CUtexObject t = findobj(tk[2])->tex; memcpy(m, &t, 8); }
      else if (!strcmp(tk[1], "tensormap")) { struct obj *o = findobj(tk[2]); memcpy(m, &o->map, 128); skip |= o->bad; }
      else die("arg?", tk[1]);
    } else if (!strcmp(tk[0], "expect")) {
      struct buf *b = findbuf(tk[1]); char *h = (char *)malloc(b->n); CK(cuMemcpyDtoH(h, b->d, b->n));
      char p[8192]; snprintf(p, sizeof p, "%s/%s", outdir, tk[2]);
      if (skip) printf("%s: %s not written (launch skipped)\n", path, tk[1]);
      else if (pass == 0) { FILE *o = fopen(p, "wb"); if (!o || fwrite(h, 1, b->n, o) != b->n) die("cannot write", p); fclose(o); }
      else { size_t n; FILE *o = fopen(p, "rb"); char *m = (char *)malloc(b->n); n = o ? fread(m, 1, b->n, o) : 0; if (o) fclose(o);
        if (n != b->n || memcmp(m, h, n)) { printf("%s: %s differs between two runs\n", path, tk[1]); diffs++; } free(m); }
      free(h);
    } else die("unknown line", tk[0]);
  }
  fclose(fp);
  for (int i = 0; i < nbuf; i++) cuMemFree(bufs[i].d);
  for (int i = 0; i < nobj; i++) if (!objs[i].tensormap) cuTexObjectDestroy(objs[i].tex);
  if (mod) cuModuleUnload(mod);
  return diffs;
}

int main(int argc, char **argv) {
  if (argc != 3) { fprintf(stderr, "usage: hw_record FILE.launch OUTDIR\n"); return 64; }
  path = argv[1]; snprintf(dir, sizeof dir, "%s", argv[1]);
  char *s = strrchr(dir, '/'); if (s) *s = 0; else strcpy(dir, ".");
  CUdevice dev; CUcontext ctx; CK(cuInit(0)); CK(cuDeviceGet(&dev, 0)); CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
  play(argv[2], 0);
  int d = play(argv[2], 1);
  printf("%s: recorded%s\n", path, d ? " (NONDETERMINISTIC)" : ", deterministic");
  return d ? 1 : 0;
}
