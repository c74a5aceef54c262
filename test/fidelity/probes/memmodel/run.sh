#!/bin/bash
# The memory-model probes (issue #39) as they were run on the H200 (device tool, kind nvidia-h200-x2,
# 2026-11-28): each source was sent xz+base64 in the command (the device copies /work/main, not this
# worktree), built with nvcc -O3 -arch=sm_90 and run once; outputs are the *_h200.csv files here.
#   memmodel_probe.cu  -> memmodel_probe_h200.csv (+ memmodel_probe_sass.txt.gz, env.txt)
#   pingpong_probe.cu  -> pingpong_probe_h200.csv
set -e
cd "$(dirname "$0")"
for p in memmodel_probe pingpong_probe; do
  nvcc -O3 -arch=sm_90 -o "/tmp/$p" "$p.cu"
  "/tmp/$p" > "${OUT:-.}/${p}_h200.csv"
done
cuobjdump -sass /tmp/memmodel_probe | gzip > "${OUT:-.}/memmodel_probe_sass.txt.gz"
