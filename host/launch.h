/*
 * launch.h -- ptxemu launch files (case.txt): parse and validate into plain data.
 *
 * A launch file says what to allocate, what to launch and what to compare.
 * It is line based; '#' starts a comment (anywhere on a line); tokens are
 * separated by blanks (space, tab, CR).  Lines execute top to bottom, like a
 * host program.  File names are relative to the launch file's folder (or
 * absolute).  Numbers are decimal or 0x hex unless said otherwise.
 *
 * BASE FORMAT (the golden cases, see shared/golden/FORMAT.md)
 *
 *   ptx FILE
 *       The PTX module.  Exactly one, before the first launch.
 *   buffer NAME BYTES zero
 *       Device allocation of BYTES bytes, zero filled.
 *   buffer NAME BYTES file FILE.bin
 *       Device allocation initialised from FILE.bin, which must be exactly
 *       BYTES long.
 *   launch KERNEL grid GX GY GZ block BX BY BZ shared DYN [cluster CX CY CZ]
 *       Launch entry KERNEL.  DYN is the dynamic shared memory in bytes.
 *       Every dimension is >= 1; BX*BY*BZ <= 1024; GY, GZ <= 65535;
 *       GX <= 2^31-1; a cluster dimension must divide the grid dimension.
 *   arg TYPE VALUE
 *       The next kernel parameter of the launch directly above (arg lines
 *       must follow their launch line or another arg line; blank and comment
 *       lines may come between, any other directive ends the launch).
 *       TYPE u8 u16 u32 u64 s8 s16 s32 s64: VALUE is decimal, negative
 *         decimal, or 0x hex; it must fit the type (a signed type takes
 *         -2^(n-1) .. 2^(n-1)-1 in decimal, or any n-bit pattern in hex, so
 *         "arg s32 0xffffffff" is -1; "-0x10" is -16).
 *       TYPE f16 f32 f64: VALUE is the IEEE bit pattern as 0x hex, or a
 *         decimal floating literal (1.5, -2e-3, inf, nan) rounded to the
 *         type; a finite literal that overflows the type is an error.
 *   arg ptr NAME
 *   arg ptr NAME+OFFSET
 *       Device address of buffer NAME (declared above), plus OFFSET bytes
 *       (0 <= OFFSET <= size of NAME).
 *   expect NAME FILE.bin MODE
 *       After all launches, buffer NAME must equal FILE.bin (same size) under
 *       MODE: exact | f32ulp N | f64ulp N | f16ulp N | bf16ulp N | f32rel R |
 *       f64rel R | set32 (see compare.h).  The buffer size must be a multiple
 *       of the mode's element size.
 *   stdout FILE.txt
 *       Expected device printf output (at most one stdout line).
 *
 * EXTENSIONS (for launch files written by hand)
 *
 *   buffer NAME BYTES random TYPE SEED [LO HI]
 *       Deterministic pseudo-random fill.  TYPE is u8..u64, s8..s64, f16,
 *       f32 or f64, BYTES a multiple of its size, SEED a 64-bit number.
 *       The generator is splitmix64:
 *           state += 0x9e3779b97f4a7c15;
 *           z = state;
 *           z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
 *           z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
 *           x = z ^ (z >> 31);
 *       with state = SEED initially, one x per element in address order.
 *       Integers: without a range, the low bits of x (all bit patterns);
 *       with LO HI (inclusive, LO <= HI, values of TYPE), LO + x mod
 *       (HI - LO + 1).  Floats: u = (x >> 11) * 2^-53 in [0, 1); the value is
 *       u, or LO + u * (HI - LO) with a range, computed in double and
 *       rounded to TYPE (so it lies in [LO, HI], HI only through rounding).
 *   buffer NAME BYTES ramp TYPE START STEP
 *       Element i = START + i * STEP.  Integers wrap modulo 2^bits; STEP is
 *       any integer from -2^63 to 2^64-1.  Floats are computed in double
 *       (START + (double)i * STEP) and rounded to TYPE; a decimal STEP is
 *       taken as a double, a 0x STEP as bits of TYPE.
 *   buffer NAME BYTES fill TYPE VALUE
 *       Every element = VALUE.
 *   dump NAME FILE.bin
 *   dump symbol:SYM FILE.bin
 *       Write the buffer's (or module variable's) contents at this point of
 *       the program to FILE.bin (relative to the launch file's folder).
 *   expect NAME value TYPE V1 [V2 ...] [MODE]
 *   expect NAME+OFFSET FILE.bin MODE
 *   expect NAME+OFFSET value TYPE V1 [V2 ...] [MODE]
 *       Inline expected values: the bytes of V1 V2 ... (TYPE as for arg) must
 *       match the buffer from OFFSET (default 0) on; the rest of the buffer is
 *       not checked.  MODE defaults to exact.  With +OFFSET, a file need only
 *       fit in the buffer.  ("value" is a keyword here: write a file named
 *       value as ./value.)
 *   symbol SYM file FILE.bin
 *   symbol SYM value TYPE V1 [V2 ...]
 *   symbol SYM fill TYPE VALUE
 *   symbol SYM+OFFSET file|value ...
 *       Set a module-scope variable (.global / .const, e.g. __device__ or
 *       __constant__) by its PTX name, at this point of the program
 *       (before the next launch, like cudaMemcpyToSymbol).  file and value
 *       write their bytes from OFFSET (default 0); fill repeats VALUE over the
 *       whole variable (its size must be a multiple of the element size).
 *       Whether SYM exists, and is big enough, is for the emulator to check.
 *   expect symbol:SYM FILE.bin MODE
 *   expect symbol:SYM value TYPE V1 [V2 ...] [MODE]
 *   expect symbol:SYM+OFFSET ...
 *       Like expect for buffers, on a module variable.  A file without
 *       +OFFSET must match the variable's size exactly (checked by the
 *       emulator: lf_expect.partial == 0).
 *   arg bytes HEX [HEX ...]
 *       A by-value parameter (e.g. a struct) as raw bytes in memory order;
 *       each HEX is an even number of hex digits, optionally prefixed 0x.
 *       "arg bytes 01000000 00000000 0200000000000000" is the 16 bytes of
 *       struct { int a; long b; } {1, 2} (with its padding written out).
 *       At most 32764 bytes.
 *
 * TEXTURES, SURFACES AND TENSOR MAPS (objects; created when their line
 * executes, in program order like the other steps)
 *
 *   texture NAME BUFFER[+OFF] TYPE CHANNELS WIDTH [HEIGHT [DEPTH]] [OPTION ...]
 *       A texture object over the texels in BUFFER from byte OFF on (OFF a
 *       multiple of 16).  TYPE is the element type of a channel: u8 s8 u16
 *       s16 u32 s32 f16 f32; CHANNELS is 1, 2 or 4 (a texel is CHANNELS
 *       elements, channel 0 = x/r first).  Layout: the texels of a CUDA
 *       array as cudaMemcpy2D/3DToArray would read them from host memory:
 *       row-major, x fastest, each row 'pitch' bytes after the one before
 *       (default WIDTH * texel bytes, no padding), each 2-D slice HEIGHT
 *       rows after the one before, each layer (or cube face) DEPTH slices
 *       after the one before.  The texture reads the buffer when a fetch
 *       executes (no texture cache: stores of an earlier launch are seen).
 *       OPTIONs, in any order:
 *         layers N          a layered texture (tex.a1d / tex.a2d) of N layers
 *         cube              a cubemap: 6 faces of WIDTH x WIDTH (HEIGHT must
 *                           equal WIDTH, no DEPTH), in the face order +x -x
 *                           +y -y +z -z; with 'layers N', N cubemaps
 *                           (6N faces, tex.acube)
 *         addr M [M [M]]    address mode per dimension (x, y, z): wrap,
 *                           clamp, mirror or border; dimensions not given
 *                           take the last mode given.  Default clamp.
 *                           wrap and mirror need 'normalized 1' (as in CUDA,
 *                           with unnormalized coordinates they act as clamp)
 *         filter point|linear   default point; linear needs float results
 *                           (TYPE f16/f32, or 'read normalized')
 *         normalized 0|1    normalized coordinates (default 0)
 *         read element|normalized   'normalized' returns unorm/snorm floats
 *                           (u8/s8/u16/s16 only): u/(2^n-1), max(s/(2^(n-1)-1), -1)
 *         border V [V V V]  border colour (address mode border): one value
 *                           for every channel or four (r g b a); default 0
 *         srgb 0|1          sRGB to linear conversion of r g b (u8 with
 *                           'read normalized' only)
 *         pitch BYTES       row pitch (>= WIDTH * texel bytes, a multiple
 *                           of the texel size)
 *       Dimensions are 1..131072, layers 1..2048.  The texels (pitch *
 *       HEIGHT * DEPTH * layers or faces bytes, the last row WIDTH texels)
 *       must lie inside BUFFER.  If the module has a .texref variable NAME
 *       (a module-scope texture reference), the texture is bound to it:
 *       tex/txq naming NAME use it (a module variable NAME of another type
 *       is an error when the line executes).
 *   surface NAME BUFFER[+OFF] TYPE CHANNELS WIDTH [HEIGHT [DEPTH]] [layers N] [cube] [pitch BYTES]
 *       A surface object (suld/sust/sured/suq) with the same layout; bound
 *       to a .surfref variable NAME when the module has one.
 *   Texture and surface handles are 1, 2, 3 ... in the order the lines
 *   execute (the emulator's object table, emu/texobj.h).
 *   tensormap NAME DTYPE RANK BUFFER[+OFF] dims D0 .. strides S1 .. box B0 ..
 *             [elemstrides E0 ..] [interleave none|16B|32B]
 *             [swizzle none|32B|64B|128B] [l2promo none|64B|128B|256B]
 *             [oobfill zero|nan] [into BUFFER2+OFF2]
 *       A CUtensorMap as cuTensorMapEncodeTiled would build it (in ptxemu's
 *       128-byte layout, see tests/exec/README-async.md), with its
 *       arguments in the same order and under the same rules:
 *       DTYPE u8 u16 u32 s32 u64 s64 f16 f32 f64 bf16 f32ftz tf32 tf32ftz
 *       (CUtensorMapDataType 0..12); RANK 1..5 (3..5 when interleaved);
 *       globalAddress = BUFFER+OFF, 16-byte aligned (32 with interleave
 *       32B); RANK dims (elements, innermost first, 1..2^32-1); RANK-1
 *       strides (bytes, dimensions 1..RANK-1: multiples of 16, or 32 with
 *       interleave 32B, below 2^40; 'strides' may be left out when RANK is
 *       1); RANK box sizes (1..256; without interleave box[0] * element
 *       size a multiple of 16, and with a swizzle at most the swizzle span);
 *       RANK element strides (1..8, default 1; without interleave the
 *       first is ignored, as TMA has no stride in dimension 0, and stored
 *       as 1); interleave 32B needs swizzle 32B; oobfill nan needs a
 *       floating DTYPE.  Defaults: none, none, none, zero.  With 'into', the 128 bytes are also written to
 *       BUFFER2 at OFF2 (a multiple of 64) when the line executes, for
 *       kernels that take a CUtensorMap pointer or copy it themselves.
 *   arg texture NAME
 *   arg surface NAME
 *       The 64-bit handle (cudaTextureObject_t / cudaSurfaceObject_t) of a
 *       texture or surface declared above: a .u64 or .texref/.surfref
 *       parameter.
 *   arg tensormap NAME
 *       The 128 bytes of a tensor map declared above, by value (a
 *       'const __grid_constant__ CUtensorMap' parameter, declared in PTX as
 *       .param .align 64 .b8 NAME[128]; nvcc 13 writes .align 128).
 *   Textures, surfaces and tensor maps share one namespace (the buffer
 *   name rules, or a PTX identifier), separate from buffers; each is
 *   declared once, and used only below its line.
 *
 * NAMES.  Buffers: [A-Za-z_][A-Za-z0-9_.$]*, at most 256 characters, each
 * defined once, and used only below their buffer line.  Kernels and symbols
 * are PTX identifiers: [A-Za-z][A-Za-z0-9_$]* or [_$%][A-Za-z0-9_$]+.
 *
 * LIMITS.  A buffer may be up to LF_MAX_BUFFER_BYTES, all buffers together
 * up to LF_MAX_TOTAL_BYTES or the cap set by lf_set_total_cap (the device
 * memory cap); 'zero' buffers are described, not allocated, by the parser.
 * Data files must be regular files.
 *
 * ERRORS are printed to diag as "FILE:LINE: error: MESSAGE", all of them in
 * line order (up to LF_MAX_ERRORS, then one "too many errors, giving up"
 * line), and parsing fails.  FILE is the path as given; a launch file that
 * cannot be read at all is reported at line 0; "missing 'ptx' line" at the
 * last line.  Tokens are quoted in messages ('c2'), with unprintable bytes
 * written \xNN.  A line with an error is dropped, but names it defines stay
 * known (a buffer with a bad size still exists for later lines, and arg lines
 * after a malformed launch still belong to it), so one mistake gives one
 * message.  The parser does not crash or leak on any input.
 *
 * EXAMPLE
 *     ptx kernel.ptx
 *     buffer x 4096 ramp f32 0 1            # 0 1 2 ... 1023
 *     buffer y 4096 fill f32 2.0
 *     buffer noise 65536 random u32 42       # splitmix64, seed 42
 *     launch saxpy grid 4 1 1 block 256 1 1 shared 0
 *     arg s32 1024
 *     arg f32 0.5                            # or 0x3f000000
 *     arg ptr x
 *     arg ptr y
 *     dump y y.after.bin
 *     expect y y.out.bin f32ulp 1
 *     expect y+4 value f32 2.5 3.0
 */
#ifndef PTXEMU_LAUNCH_H
#define PTXEMU_LAUNCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare.h"

#define LF_MAX_BUFFER_BYTES (4ull << 30)  /* one buffer: 4 GiB */
#define LF_MAX_TOTAL_BYTES (16ull << 30)  /* all buffers: 16 GiB */
#define LF_MAX_FILE_BYTES (64u << 20)     /* the launch file itself */
#define LF_MAX_PARAM_BYTES 32764          /* one 'arg bytes' */
#define LF_MAX_ERRORS 100

/* Lower the limit on all buffers together (0: back to LF_MAX_TOTAL_BYTES). */
void lf_set_total_cap(uint64_t bytes);

/* Element types of arg / random / ramp / fill / value lists. */
enum lf_type {
    LF_U8, LF_U16, LF_U32, LF_U64,
    LF_S8, LF_S16, LF_S32, LF_S64,
    LF_F16, LF_F32, LF_F64,
    LF_TYPE_COUNT
};

enum lf_arg_kind {
    LF_ARG_SCALAR, /* type, value (size bytes, little-endian, zero-extended) */
    LF_ARG_PTR,    /* buffer, offset: device address of the buffer + offset */
    LF_ARG_BYTES,  /* bytes[size]: a by-value aggregate */
    LF_ARG_TEXTURE,   /* object: the handle of a texture (8 bytes) */
    LF_ARG_SURFACE,   /* object: the handle of a surface (8 bytes) */
    LF_ARG_TENSORMAP  /* object: the 128 bytes of a tensor map */
};

typedef struct lf_arg {
    enum lf_arg_kind kind;
    enum lf_type type;   /* LF_ARG_SCALAR */
    uint64_t value;      /* LF_ARG_SCALAR: raw bits, e.g. s32 -1 -> 0xffffffff */
    int buffer;          /* LF_ARG_PTR: index into launch_file.buffers */
    uint64_t offset;     /* LF_ARG_PTR */
    uint8_t *bytes;      /* LF_ARG_BYTES */
    size_t size;         /* bytes the parameter takes: type size, 8 for ptr and handles,
                            nbytes, 128 for a tensor map */
    int object;          /* LF_ARG_TEXTURE/SURFACE/TENSORMAP: index into launch_file.objects */
    int line;
} lf_arg;

enum lf_init { LF_INIT_ZERO, LF_INIT_FILE, LF_INIT_RANDOM, LF_INIT_RAMP, LF_INIT_FILL,
                LF_INIT_UNDEF };     /* zero filled, but undefined for initcheck (--sanitize) */

typedef struct lf_buffer {
    char *name;
    uint64_t size;       /* bytes */
    enum lf_init init;
    enum lf_type type;   /* element type for random / ramp / fill */
    char *file;          /* LF_INIT_FILE: resolved path, else NULL */
    uint8_t *data;       /* initial contents (size bytes); NULL for LF_INIT_ZERO and _UNDEF */
    int line;
} lf_buffer;

/* What a dump / expect / symbol line points at. */
typedef struct lf_target {
    int buffer;          /* index into buffers, or -1 for a module variable */
    char *symbol;        /* PTX name when buffer == -1, else NULL */
    uint64_t offset;     /* bytes from the start */
} lf_target;

enum lf_step_kind { LF_LAUNCH, LF_DUMP, LF_SYMBOL_SET, LF_OBJECT };

/* texture / surface / tensormap lines */
enum lf_object_kind { LF_OBJ_TEXTURE, LF_OBJ_SURFACE, LF_OBJ_TENSORMAP };
enum lf_addr_mode { LF_ADDR_WRAP, LF_ADDR_CLAMP, LF_ADDR_MIRROR, LF_ADDR_BORDER };

typedef struct lf_texture {   /* texture and surface lines */
    enum lf_type type;        /* channel element type: u8 s8 u16 s16 u32 s32 f16 f32 */
    int channels;             /* 1, 2 or 4 */
    int ndims;                /* 1..3: WIDTH [HEIGHT [DEPTH]] as written */
    uint32_t width, height, depth;  /* dimensions not written are 1 */
    uint32_t layers;          /* 0: not layered (with cube: number of cubemaps) */
    int cube;                 /* 6 faces per layer */
    uint64_t pitch;           /* bytes from one row to the next */
    uint64_t bytes;           /* bytes the texels span from the offset on */
    int addr[3];              /* enum lf_addr_mode for x, y, z */
    int linear;               /* filter linear */
    int normalized;           /* normalized coordinates */
    int read_normalized;      /* read mode normalized float */
    int srgb;
    float border[4];          /* border colour r g b a */
} lf_texture;

typedef struct lf_tensormap {  /* cuTensorMapEncodeTiled's arguments */
    int dtype;                /* CUtensorMapDataType 0..12 */
    int rank;                 /* 1..5 */
    uint64_t dim[5];          /* globalDim, innermost first */
    uint64_t stride[5];       /* globalStrides of dimensions 1..rank-1 in stride[1..]; stride[0] = 0 */
    uint32_t box[5];
    uint32_t estride[5];      /* elementStrides (1 when not given) */
    int interleave, swizzle, l2promo, oobfill;  /* CUtensorMap* enumerations */
    int im2col;               /* cuTensorMapEncodeIm2col: lower/upper/channels/pixels instead of box */
    int32_t lower[3], upper[3];
    uint32_t channels, pixels;
    int into_buffer;          /* 'into': buffer index, or -1 */
    uint64_t into_offset;
} lf_tensormap;

typedef struct lf_object {
    enum lf_object_kind kind;
    char *name;
    int buffer;               /* the texels / the tensor (globalAddress) */
    uint64_t offset;          /* bytes from the buffer's start */
    lf_texture tex;           /* LF_OBJ_TEXTURE, LF_OBJ_SURFACE */
    lf_tensormap tmap;        /* LF_OBJ_TENSORMAP */
    int line;
} lf_object;

typedef struct lf_launch {
    char *kernel;
    uint32_t grid[3], block[3];
    uint32_t shared;     /* dynamic shared memory, bytes */
    int has_cluster;
    uint32_t cluster[3]; /* 1 1 1 when !has_cluster */
    lf_arg *args;
    int nargs;
    int index;           /* 0, 1, ... in file order (as hw.txt counts launches) */
} lf_launch;

typedef struct lf_dump {
    lf_target target;    /* offset is always 0: the whole buffer / variable */
    char *file;          /* resolved path to write */
} lf_dump;

typedef struct lf_symset {
    lf_target target;    /* buffer == -1, symbol set */
    int fill;            /* 1: repeat data[size] over the whole variable */
    uint8_t *data;
    size_t size;
} lf_symset;

typedef struct lf_step {
    enum lf_step_kind kind;
    int line;
    union {
        lf_launch launch;   /* LF_LAUNCH */
        lf_dump dump;       /* LF_DUMP */
        lf_symset symset;   /* LF_SYMBOL_SET */
        int object;         /* LF_OBJECT: index into launch_file.objects (create it) */
    };
} lf_step;

typedef struct lf_expect {
    char *name;          /* as written: "c", "c+16", "symbol:g_count" (for reports) */
    lf_target target;
    int partial;         /* 0: data covers the whole target (file form, no +OFFSET) */
    char *file;          /* resolved path, NULL for inline values */
    uint8_t *data;       /* expected bytes */
    size_t size;
    enum cmp_mode mode;
    double param;        /* N or R of the mode, 0 if none */
    int type;            /* enum lf_type of a value list, else of the buffer's random /
                            ramp / fill line; -1 when not known (mismatches show it) */
    int line;
} lf_expect;

typedef struct launch_file {
    char *path;          /* as given */
    char *dir;           /* folder of path ("" for the current folder) */
    char *ptx_path;      /* resolved path of the ptx line */
    int ptx_line;
    lf_buffer *buffers;
    int nbuffers;
    lf_step *steps;      /* launches, dumps, symbol sets, objects in program order */
    int nsteps;
    int nlaunches;
    lf_expect *expects;  /* checked after all steps, in this order */
    int nexpects;
    char *stdout_path;   /* resolved, NULL if no stdout line */
    uint8_t *stdout_data;/* its contents (NUL-terminated, stdout_size bytes before) */
    size_t stdout_size;
    lf_object *objects;  /* textures, surfaces, tensor maps (in file order) */
    int nobjects;
} launch_file;

/* Parse and validate; loads every data file (relative to the launch file's
 * folder) and generates random/ramp/fill contents.  Returns 0 on success,
 * else the number of errors printed to diag (diag may be NULL: silent).
 * On failure *out is left empty (all zero); lf_free is safe either way. */
int lf_parse_file(const char *path, launch_file *out, FILE *diag);

/* Same, from text in memory; virtual_path is used in messages and to find
 * data files (its folder). */
int lf_parse_string(const char *text, const char *virtual_path, launch_file *out, FILE *diag);

/* Same, from len bytes (may contain NUL bytes, which are errors; text may
 * be NULL only when len is 0). */
int lf_parse_mem(const char *text, size_t len, const char *virtual_path, launch_file *out,
                 FILE *diag);

void lf_free(launch_file *lf);

/* Index of buffer NAME, or -1. */
int lf_find_buffer(const launch_file *lf, const char *name);

/* Index of texture/surface/tensormap NAME, or -1. */
int lf_find_object(const launch_file *lf, const char *name);

/* Bytes of a CUtensorMapDataType element (0 if unknown). */
size_t lf_tensormap_elem_size(int dtype);

/* "u32", "f16", ...; bytes of an element; -1 if the name is unknown. */
const char *lf_type_name(enum lf_type t);
size_t lf_type_size(enum lf_type t);
int lf_type_from_name(const char *name);

/* splitmix64 step as documented above (exported for tests and tools). */
uint64_t lf_splitmix64(uint64_t *state);

#endif
