#!/usr/bin/env bash
# Compiles unroll_probe.cu as the cuda-samples build does (sm_90, -O3) and dumps its SASS and a summary
# (static instruction counts per kernel). Usage: bash run_unroll_probe.sh OUTDIR
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd); OUT=${1:-$HERE}
cd /tmp && nvcc -arch=sm_90 -O3 -cubin -Xptxas -v -o unroll_probe.cubin "$HERE/unroll_probe.cu" > "$OUT/unroll_probe_ptxas.txt" 2>&1
nvcc --version | tail -2 >> "$OUT/unroll_probe_ptxas.txt"
cuobjdump -sass unroll_probe.cubin | sed 's@ */\* 0x[0-9a-f]* \*/@@' | grep -v '^\s*$' > "$OUT/unroll_probe_sass.txt"
awk '/Function :/{f=$3} /^ *\/\*[0-9a-f]+\*\//{n[f]++; if ($0 ~ /BRA/) b[f]++; if ($0 ~ /LDG/) l[f]++; if ($0 ~ /STG/) s[f]++}
  END{for (k in n) printf "%s static=%d BRA=%d LDG=%d STG=%d\n", k, n[k], b[k], l[k], s[k]}' "$OUT/unroll_probe_sass.txt" | sort > "$OUT/unroll_probe_summary.txt"
cat "$OUT/unroll_probe_summary.txt"
