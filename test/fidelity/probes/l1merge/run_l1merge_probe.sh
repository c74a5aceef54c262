# Builds l1merge_probe.cu and runs it under ncu (--clock-control none, --cache-control all, one pass);
# $OUT gets the raw CSV (kept here as l1merge_probe_h200.csv); metrics this ncu lacks are left out (named in q.log).
cd "$(dirname "$0")"
N=$(command -v ncu||ls /usr/local/cuda/bin/ncu)
nvcc -arch=sm_90 -O3 -o l1m l1merge_probe.cu||exit 1
$N --query-metrics --chip gh100 2>/dev/null|awk '{print $1}'>q
L=l1tex__t_;S=${L}sectors_pipe_lsu_mem_global_op_ld;X=l1tex__m_xbar2l1tex_read_sectors;T=lts__t_
M=${L}sector_pipe_lsu_mem_global_op_ld_hit_rate.pct
for b in ${L}requests_pipe_lsu_mem_global_op_ld $S ${S}_lookup_hit ${S}_lookup_miss ${X}_mem_global_op_ld ${X}_mem_lg_op_ld $X ${T}sectors_srcunit_tex_op_read ${T}requests_srcunit_tex_op_read ${T}sectors_srcunit_tex_op_read_lookup_miss dram__sectors_read gpu__time_duration;do grep -qx $b q&&M=$M,$b.sum||echo no $b>>$OUT/q.log;done
$N --clock-control none --cache-control all --metrics $M -f -o r ./l1m>$OUT/l1m.log 2>&1
$N -i r.ncu-rep --page raw --csv --print-units base>$OUT/l1merge_probe_h200.csv
tail -n 2 $OUT/*.log
