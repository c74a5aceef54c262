#!/usr/bin/env bash
# SASS of family1_sass.cu's kernels as nvcc -O3 -arch=sm_90 compiles them (as micro.cu was built);
# output: sass.txt (cuobjdump -sass), nvcc_version.txt
set -euo pipefail
cd "$(dirname "$0")"
out=${OUT:-.}
nvcc --version > "$out/nvcc_version.txt"
nvcc -O3 -arch=sm_90 -cubin -o "$out/family1_sass.cubin" family1_sass.cu
cuobjdump -sass "$out/family1_sass.cubin" > "$out/sass.txt"
