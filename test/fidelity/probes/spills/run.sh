# Builds spill_probe.cu three times (no limit, -maxrregcount=32, -maxrregcount=24) and runs each under
# ncu (--clock-control none, --cache-control all); $OUT gets ptxas -v, the SASS and the raw CSVs
# (in one tarball, spills.tgz).
cd "$(dirname "$0")"
N=$(command -v ncu||ls /usr/local/cuda/bin/ncu)
L=l1tex__t_
M=smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum,${L}sectors_pipe_lsu_mem_local_op_ld.sum,${L}sectors_pipe_lsu_mem_local_op_st.sum,${L}requests_pipe_lsu_mem_local_op_ld.sum,${L}requests_pipe_lsu_mem_local_op_st.sum,${L}sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum,${L}sectors_pipe_lsu_mem_local_op_st_lookup_hit.sum,smsp__inst_executed.sum,launch__registers_per_thread,gpu__time_duration.sum,smsp__sass_inst_executed_op_global_ld.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_write.sum
for r in 0 32 24; do
  F=""; [ $r -gt 0 ] && F="-maxrregcount=$r"
  nvcc -arch=sm_90 -O3 $F -Xptxas -v -o sp$r spill_probe.cu > $OUT/ptxas_r$r.txt 2>&1 || { cat $OUT/ptxas_r$r.txt; exit 1; }
  cuobjdump -sass sp$r > $OUT/sass_r$r.txt
  $N --clock-control none --cache-control all --metrics $M -f -o sp$r ./sp$r > $OUT/ncu_r$r.log 2>&1
  $N -i sp$r.ncu-rep --page raw --csv --print-units base > $OUT/spill_probe_r${r}_h200.csv
  tail -n 1 $OUT/ncu_r$r.log
done
cd $OUT && tar czf spills.tgz *.txt *.csv *.log && rm -f *.txt *.csv *.log
