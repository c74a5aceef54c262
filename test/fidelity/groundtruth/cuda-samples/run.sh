#!/usr/bin/env bash
# Builds samples.cu, runs it once without the profiler (CHECK lines), then under Nsight Compute with the
# flags and the 77 metrics of the H200 ground truth (../shared/groundtruth: kernel replay,
# --cache-control all, --clock-control none), and writes the raw CSV page validate reads.
#   bash run.sh OUTDIR        (about a minute on one H200)
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
RES=${1:-$HERE/h200}
mkdir -p "$RES"; RES=$(cd "$RES" && pwd)
BUILD=${BUILD_DIR:-/tmp/samples_build}; mkdir -p "$BUILD"
NCU=${NCU:-$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -n1)}
T0=$(date +%s); log() { echo "[t+$(( $(date +%s) - T0 ))s] $*" | tee -a "$RES/run.log"; }
: > "$RES/run.log"
{ nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,clocks.max.sm,clocks.max.mem,ecc.mode.current --format=csv
  nvcc --version; "$NCU" --version; uname -srm; } > "$RES/env.txt" 2>&1
log "build"
cd "$BUILD" || exit 1
nvcc -arch=sm_90 -O3 -lineinfo -Xptxas -v -o samples "$HERE/samples.cu" > "$RES/build_ptxas.txt" 2>&1 || { log "BUILD FAILED"; cat "$RES/build_ptxas.txt"; exit 1; }
cuobjdump --dump-sass samples > sass.txt 2>&1; gzip -c sass.txt > "$RES/sass.txt.gz"
log "unprofiled run"
timeout 120 ./samples > "$RES/run_noprof.txt" 2>&1; echo "rc=$?" >> "$RES/run_noprof.txt"
grep -E "CHECK|DONE|error" "$RES/run_noprof.txt"
METRICS=$(grep -v '^#' "$HERE/metrics.txt" | paste -sd, -)
log "ncu (kernel replay, caches flushed before each kernel and pass, clocks as found)"
timeout 400 "$NCU" --clock-control none --cache-control all --metrics "$METRICS" -f -o ncu_samples ./samples > "$RES/ncu_samples.log" 2>&1
echo "rc=$?" >> "$RES/ncu_samples.log"
"$NCU" -i ncu_samples.ncu-rep --page raw --csv --print-units base > "$RES/ncu_raw_samples.csv" 2>> "$RES/ncu_samples.log"
log "ncu: $(( $(wc -l < "$RES/ncu_raw_samples.csv") - 2 )) kernel rows"
grep -E "CHECK|DONE" "$RES/ncu_samples.log"
