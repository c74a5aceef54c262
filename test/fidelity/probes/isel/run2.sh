#!/usr/bin/env bash
# The if-conversion sweep (ifconv_probe.cu): SASS and executed counts, as run.sh
set -u
D=$(cd "$(dirname "$0")" && pwd); O=${OUT:-/tmp/isel_out}; mkdir -p "$O"; cd /tmp
nvcc -arch=sm_90 -O3 -lineinfo -o ifconv_probe "$D/ifconv_probe.cu" > "$O/ifconv_build.txt" 2>&1 || { cat "$O/ifconv_build.txt"; exit 1; }
cuobjdump --dump-sass ifconv_probe > "$O/ifconv_sass.txt" 2>&1
./ifconv_probe
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -n1)
timeout 200 "$NCU" --clock-control none --cache-control all --csv --page raw --print-units base \
  --metrics smsp__inst_executed.sum,smsp__thread_inst_executed.sum,smsp__thread_inst_executed_pred_on.sum,smsp__sass_inst_executed_op_branch.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum \
  ./ifconv_probe 2> "$O/ifconv_ncu.log" | grep "^\"" > "$O/ifconv_ncu_raw.csv"; echo "ncu rc=$?"
