#!/bin/bash
# scanExclusiveShared's extra shared wavefronts against blocks per SM and global loads: samples.cu with
# the scan's launch edited by sed (264, 528, 1056 blocks: 2, 4, 8 per SM in one wave; nl: its uint4
# load replaced by a value computed from pos, with 4096 and 1056 blocks), one ncu pass each; on the
# device machine from the repository root; $OUT/wf.tgz holds one raw CSV per variant (h200/wf_*.csv).
D=test/fidelity/groundtruth/cuda-samples;B=/tmp/wf;mkdir -p $B $OUT/w
N=$(command -v ncu||ls /opt/nvidia/nsight-compute/*/ncu|tail -1)
W=l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,gpu__time_duration.sum,l1tex__data_pipe_lsu_wavefronts.sum
NL='s/uint4 idata4 = d_Src\[pos\];/uint4 idata4 = make_uint4(pos, pos ^ 1, pos ^ 2, pos ^ 3);/'
v(){ sed "s/scanExclusiveShared<<<blocks,/scanExclusiveShared<<<$2,/;$3" $D/samples.cu>$B/$1.cu;nvcc -arch=sm_90 -O3 -o $B/$1 $B/$1.cu; }
v g264 264 & v g528 528 & v g1056 1056 & v nl 4096 "$NL" & v nl1056 1056 "$NL" & wait
for x in g264 g528 g1056 nl nl1056;do $N --clock-control none --cache-control all --metrics $W -k regex:scanEx -f -o $B/$x $B/$x scan >/dev/null 2>&1
$N -i $B/$x.ncu-rep --page raw --csv --print-units base >$OUT/w/wf_$x.csv;done;cd $OUT;tar czf wf.tgz w;rm -r w
