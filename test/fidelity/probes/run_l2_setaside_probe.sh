#!/bin/bash
# Builds l2_setaside_probe.cu and runs each mode under ncu (--clock-control none, application replay,
# the L2 kept between kernels): on the device machine, from the repository root,
# `bash test/fidelity/probes/run_l2_setaside_probe.sh`; $OUT gets one raw CSV per mode (kept here as
# l2_setaside_probe_<mode>_h200.csv) and the program's output.
cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -o l2setaside l2_setaside_probe.cu || exit 1
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,launch__persisting_l2_cache_size
for mode in ${MODES:-default zero same max sweep}; do
  ./l2setaside $mode > "$OUT/plain_$mode.log" 2>&1
  timeout 120 "$NCU" --clock-control none --cache-control none --replay-mode application --metrics $M -f -o "$OUT/sa_$mode" ./l2setaside $mode > "$OUT/ncu_$mode.log" 2>&1
  "$NCU" -i "$OUT/sa_$mode.ncu-rep" --page raw --csv --print-units base > "$OUT/l2_setaside_probe_${mode}_h200.csv" && rm -f "$OUT/sa_$mode.ncu-rep"
done
grep -h "SETASIDE\|err" "$OUT"/plain_*.log "$OUT"/ncu_*.log | sort | uniq -c
