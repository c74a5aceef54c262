# run on the device machine: nvcc, SASS, ncu raw csv of the metrics this ncu knows
cd /tmp/cp && nvcc -arch=sm_90 -O3 -o p parts_probe.cu && cuobjdump -sass p | grep -E "Function|LDL|STL|ATOMS|LD\.E|ST\.E|LDS|STS" > $OUT/parts_sass.txt
NCU=$(command -v ncu || ls -d /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null|tail -n1)
$NCU --query-metrics --chip gh100 > q.txt 2>&1
M=$(for m in $(cat metrics.txt); do grep -q "^${m%.*} " q.txt && echo $m; done | paste -sd,)
echo "$M" > $OUT/metrics_used.txt
$NCU --cache-control all --clock-control none --metrics "$M" --csv --page raw ./p > $OUT/parts_probe_h200.csv 2> $OUT/ncu.log
