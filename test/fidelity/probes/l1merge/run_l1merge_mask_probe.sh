# Builds l1merge_mask_probe.cu and runs it under ncu (--clock-control none) twice: --cache-control all
# (l1merge_mask_probe_h200.csv) and none (l1merge_mask_probe_warm_h200.csv: the L2 holds the lines).
cd "$(dirname "$0")"
N=$(command -v ncu||ls /usr/local/cuda/bin/ncu)
nvcc -arch=sm_90 -O3 -o l1k l1merge_mask_probe.cu||exit 1
L=l1tex__t_;S=${L}sectors_pipe_lsu_mem_global_op_ld;T=lts__t_
M=${L}requests_pipe_lsu_mem_global_op_ld.sum,$S.sum,${S}_lookup_hit.sum,${S}_lookup_miss.sum,l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum,${T}sectors_srcunit_tex_op_read.sum,${T}requests_srcunit_tex_op_read.sum,${T}sectors_srcunit_tex_op_read_lookup_miss.sum,dram__sectors_read.sum
for c in all none;do $N --clock-control none --cache-control $c --metrics $M -f -o k$c ./l1k>$OUT/l1k$c.log 2>&1;done
$N -i kall.ncu-rep --page raw --csv --print-units base>$OUT/l1merge_mask_probe_h200.csv
$N -i knone.ncu-rep --page raw --csv --print-units base>$OUT/l1merge_mask_probe_warm_h200.csv
tail -n 2 $OUT/l1k*.log
