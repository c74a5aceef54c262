#!/bin/bash
# Builds runtime_probe.cu and runs it: on the device machine, from the repository root,
# `bash test/fidelity/probes/run_runtime_probe.sh`. The raw output goes to $OUT/runtime_probe_h200.txt
# (kept here as runtime_probe_h200.txt) and to stdout. The full program runs twice (run 1 and run 2, for
# spread between processes); the false-dependency family is then re-run once per CUDA_DEVICE_MAX_CONNECTIONS.
cd "$(dirname "$0")"
O="${OUT:-.}/runtime_probe_h200.txt"
: > "$O"
log() { echo "$@" | tee -a "$O"; }
BIN=/tmp/runtime_probe
nvcc -O3 -arch=sm_90 -o $BIN runtime_probe.cu 2>&1 | tee -a "$O" || exit 1
log "=== nvidia-smi"
nvidia-smi 2>&1 | tee -a "$O"
nvidia-smi -q 2>&1 | grep -i -A3 "PCIe\|Link\|Clocks\|Persistence\|Compute Mode\|Driver Version\|CUDA Version\|Virtualization\|Product Name" | head -150 | tee -a "$O"
log "=== lscpu"; (nproc; grep -m1 "model name" /proc/cpuinfo; uname -r) 2>&1 | tee -a "$O"
for run in 1 2; do
  log "=== run $run: ./runtime_probe all (CUDA_DEVICE_MAX_CONNECTIONS unset)"
  timeout 200 $BIN all 2>&1 | tee -a "$O"
done
for c in 1 4 8 16 32; do
  log "=== CUDA_DEVICE_MAX_CONNECTIONS=$c ./runtime_probe fdep"
  CUDA_DEVICE_MAX_CONNECTIONS=$c timeout 60 $BIN fdep 2>&1 | tee -a "$O"
done
log "=== clocks after"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,clocks.max.sm,pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max,temperature.gpu,power.draw --format=csv 2>&1 | tee -a "$O"
