#!/bin/sh
# Runs ptxas over every hand-written module with the architecture and flags
# it was written for, and compares the outcome with the expectation recorded
# here (and in the comment at the top of each file).
#
#   tests/corpus/hand/check.sh        (PTXAS=/path/to/ptxas to override)
set -u
PTXAS=${PTXAS:-/usr/local/cuda/bin/ptxas}
cd "$(dirname "$0")"

# file | ptxas flags | expected: ok or refused
TABLE="
legacy_ptx14_sm13.ptx       | -arch=sm_75     | refused
legacy_ptx20_directives.ptx | -arch=sm_75     | ok
legacy_ptx23_sm20.ptx       | -arch=sm_75     | ok
immediates.ptx              | -arch=sm_80     | ok
module_vars.ptx             | -arch=sm_90     | ok
functions.ptx               | -c -arch=sm_90  | ok
multi_return_noabi.ptx      | -arch=sm_80     | ok
instr_forms.ptx             | -arch=sm_80     | ok
integer_ops.ptx             | -arch=sm_80     | ok
float_modes.ptx             | -arch=sm_90     | ok
video_simd.ptx              | -arch=sm_90     | ok
memory_model.ptx            | -arch=sm_90     | ok
misc_sm90.ptx               | -arch=sm_90     | ok
async_bulk_sm90a.ptx        | -arch=sm_90a    | ok
v8_sm100.ptx                | -arch=sm_100    | ok
vector_regs_many.ptx        | -arch=sm_90     | ok
textures_surfaces.ptx       | -arch=sm_80     | ok
textures_independent.ptx    | -arch=sm_80     | ok
lexical_crlf.ptx            | -arch=sm_80     | ok
scopes_vectors.ptx          | -arch=sm_90     | ok
"

fail=0
echo "$TABLE" | { while IFS='|' read -r file flags expect; do
    file=$(echo "$file" | tr -d ' ')
    expect=$(echo "$expect" | tr -d ' ')
    [ -n "$file" ] || continue
    # shellcheck disable=SC2086
    if "$PTXAS" $flags "$file" -o /dev/null >/dev/null 2>&1; then got=ok; else got=refused; fi
    if [ "$got" = "$expect" ]; then
        echo "PASS $file ($got)"
    else
        echo "FAIL $file: expected $expect, got $got"
        fail=1
    fi
done
exit $fail; }
