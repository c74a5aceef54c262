#!/bin/bash
# Issue #40 run-to-run spread and filter_arr occupancy probes, on the device machine from the repository
# root: `bash test/fidelity/probes/spread/run_spread.sh`; everything lands in $OUT.
#  k1..k5  samples.cu as run.sh builds it, ncu with run.sh's flags and 77 metrics, on filter_arr and
#          scanExclusiveShared only (-k), five times: the H200's run-to-run spread (kernel replay)
#  a_*     the same once with --replay-mode application (scan, then filter_arr, each run alone)
#  w*      scanExclusiveShared's shared wavefronts alone (one pass), full grid, 132 blocks and 1 block
set -u
P=test/fidelity/probes; D=test/fidelity/groundtruth/cuda-samples; B=/tmp/spread; mkdir -p $B $OUT/s
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu | tail -n1)
nvcc -arch=sm_90 -O3 -lineinfo -o $B/samples $D/samples.cu || exit 1
M=$(grep -v '^#' $D/metrics.txt | paste -sd, -)
K='regex:^(filter_arr|scanExclusiveShared)$'
F="--clock-control none --cache-control all"
raw() { $NCU -i $B/$1.ncu-rep --page raw --csv --print-units base > $OUT/s/$1.csv; }
for i in 1 2 3 4 5; do
  timeout 200 $NCU $F --metrics $M -k "$K" -f -o $B/k$i $B/samples > $B/k$i.log 2>&1; raw k$i
done
for a in scan warpAggregatedAtomicsCG; do
  timeout 150 $NCU $F --replay-mode application --metrics $M -k "$K" -f -o $B/a_$a $B/samples $a > $B/a_$a.log 2>&1; raw a_$a
done
W=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
for g in blocks 132 1; do
  sed "s/scanExclusiveShared<<<blocks,/scanExclusiveShared<<<$g,/" $D/samples.cu > $B/s$g.cu
  nvcc -arch=sm_90 -O3 -o $B/s$g $B/s$g.cu && for r in 1 2; do
    timeout 100 $NCU $F --metrics $W -k regex:scanEx -f -o $B/w${g}_$r $B/s$g scan > /dev/null 2>&1; raw w${g}_$r; done
done
tail -3 $B/k1.log $B/a_*.log; ls -la $OUT/s; cd $OUT && tar czf spread.tgz s && rm -r s
