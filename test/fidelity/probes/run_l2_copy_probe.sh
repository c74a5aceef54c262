#!/bin/bash
# Builds l2_copy_probe.cu and runs it under ncu (--clock-control none, application replay, the L2
# kept between kernels): on the device machine, from the repository root,
# `bash test/fidelity/probes/run_l2_copy_probe.sh`; $OUT gets the raw CSVs (kept here as l2_copy_probe_{read,write}_h200.csv) and the program's output.
cd "$(dirname "$0")"
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | tail -n1)
nvcc -arch=sm_90 -O3 -o l2copy l2_copy_probe.cu || exit 1
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sector_op_read_hit_rate.pct,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_read_lookup_hit.sum
for mode in read write; do
  ./l2copy $mode > "$OUT/plain_$mode.log" 2>&1
  timeout 250 "$NCU" --clock-control none --cache-control none --replay-mode application --metrics $M --kernel-name-base demangled -k 'regex:readR|writeR|stream' -f -o "$OUT/l2copy_$mode" ./l2copy $mode > "$OUT/ncu_$mode.log" 2>&1
  "$NCU" -i "$OUT/l2copy_$mode.ncu-rep" --page raw --csv --print-units base > "$OUT/l2_copy_probe_${mode}_h200.csv" && rm -f "$OUT/l2copy_$mode.ncu-rep"
done
grep -h "COPYPROBE\|err\|ERR" "$OUT"/plain_*.log "$OUT"/ncu_*.log | sort | uniq -c | head -40
