# Builds l1merge_group_probe.cu and runs it under ncu (--clock-control none, --cache-control all);
# $OUT gets the raw CSV (kept here as l1merge_group_probe_h200.csv).
cd "$(dirname "$0")"
N=$(command -v ncu||ls /usr/local/cuda/bin/ncu)
nvcc -arch=sm_90 -O3 -o l1p l1merge_group_probe.cu||exit 1
L=l1tex__t_;S=${L}sectors_pipe_lsu_mem_global_op_ld;T=lts__t_
M=${L}sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,${L}requests_pipe_lsu_mem_global_op_ld.sum,$S.sum,${S}_lookup_hit.sum,${S}_lookup_miss.sum,l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum,${T}sectors_srcunit_tex_op_read.sum,${T}requests_srcunit_tex_op_read.sum,${T}sectors_srcunit_tex_op_read_lookup_miss.sum,dram__sectors_read.sum,gpu__time_duration.sum
$N --clock-control none --cache-control all --metrics $M -f -o p ./l1p>$OUT/l1p.log 2>&1
$N -i p.ncu-rep --page raw --csv --print-units base>$OUT/l1merge_group_probe_h200.csv
tail -n 2 $OUT/l1p.log
