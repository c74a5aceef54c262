#!/usr/bin/env bash
# Build the probes as the ground truth is built, dump their SASS and count each kernel's executed
# warp instructions with ncu (1 block of 64 threads: 2 warps; reduce0: 256 threads).
set -u
D=$(cd "$(dirname "$0")" && pwd); O=${OUT:-/tmp/isel_out}; mkdir -p "$O"; cd /tmp
nvcc -arch=sm_90 -O3 -lineinfo -Xptxas -v -o isel_probe "$D/isel_probe.cu" > "$O/build_ptxas.txt" 2>&1 || { cat "$O/build_ptxas.txt"; exit 1; }
cuobjdump --dump-sass isel_probe > "$O/sass.txt" 2>&1
./isel_probe > "$O/run.txt" 2>&1; cat "$O/run.txt"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -n1)
timeout 240 "$NCU" --clock-control none --cache-control all --csv --page raw --print-units base \
  --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__thread_inst_executed_pred_on.sum,smsp__sass_inst_executed_op_branch.sum,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_branch_targets.sum,smsp__sass_branch_targets_threads_divergent.sum \
  ./isel_probe 2> "$O/ncu.log" | grep "^\"" > "$O/ncu_raw.csv"; echo "ncu rc=$?"
tail -3 "$O/ncu.log"; wc -l "$O/ncu_raw.csv"
