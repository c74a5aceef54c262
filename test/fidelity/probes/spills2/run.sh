# Builds spill_probe2.cu with no limit, -maxrregcount=32 and 24, runs each under ncu (--clock-control
# none --cache-control all): 12 launches per build (shapes 0-3 x K = 24, 32, 48, in that order).
# $OUT gets ptxas -v, the SASS and the raw CSVs in one tarball (spills2.tgz).
cd "$(dirname "$0")"
N=$(command -v ncu||ls /usr/local/cuda/bin/ncu)
M=smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum,smsp__inst_executed.sum,launch__registers_per_thread,gpu__time_duration.sum
for r in 0 32 24; do
  F=""; [ $r -gt 0 ] && F="-maxrregcount=$r"
  nvcc -arch=sm_90 -O3 $F -Xptxas -v -o sp$r spill_probe2.cu > $OUT/ptxas_r$r.txt 2>&1 || { cat $OUT/ptxas_r$r.txt; exit 1; }
  cuobjdump -sass sp$r > $OUT/sass_r$r.txt
  $N --clock-control none --cache-control all --metrics $M -f -o sp$r ./sp$r > $OUT/ncu_r$r.log 2>&1
  $N -i sp$r.ncu-rep --page raw --csv --print-units base > $OUT/spill_probe2_r${r}_h200.csv
  tail -n 1 $OUT/ncu_r$r.log
done
cd $OUT && tar czf spills2.tgz *.txt *.csv *.log && rm -f *.txt *.csv *.log
