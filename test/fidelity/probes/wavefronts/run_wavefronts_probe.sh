#!/bin/bash
# wavefronts_probe.cu on the device machine (one H200 of nvidia-h200-x2), from /tmp/wv; one ncu run over
# all its launches with the ground truth's flags. $OUT/wv.csv: ncu's raw page; wv.txt: the program's lines.
cd /tmp/wv;nvcc -arch=sm_90 -O3 -o p wavefronts_probe.cu&&./p>$OUT/wv.txt;cuobjdump -sass p|grep -Eo '(LD|ST)[GS][.A-Z0-9]*'|sort|uniq -c>$OUT/sass.txt
L=l1tex__data_;G=l1tex__t_;E=_pipe_lsu_mem_global_op_;N=$(command -v ncu||ls /opt/nvidia/nsight-compute/*/ncu|tail -1)
M=$(echo ${L}pipe_lsu_wavefronts{,_mem_shared{,_op_ld,_op_st}}.sum ${L}bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum ${L}bank_{reads,writes}.sum smsp__sass_inst_executed_op_shared_{ld,st}.sum ${G}{requests,sectors}${E}{ld,st}.sum ${G}sectors${E}ld_lookup_miss.sum gpu__time_duration.sum sm__cycles_active.avg sm__ctas_launched.sum|tr ' ' ,)
$N --clock-control none --cache-control all --metrics $M -f -o r ./p>$OUT/ncu.log 2>&1;$N -i r.ncu-rep --page raw --csv --print-units base>$OUT/wv.csv
