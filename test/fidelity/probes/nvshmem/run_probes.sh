#!/bin/bash
# Builds and runs the NVSHMEM / NVLink probes on the device machine (kind nvidia-h200-x2), from the
# repository root:  bash test/fidelity/probes/nvshmem/run_probes.sh [steps]
# steps (default "info build p2p bench jacobi"): any subset. Raw output goes to $OUT (at most 8 files):
#   env.txt (machine, topology, builds), p2p.csv, bench.csv (+ bench_err.txt), jacobi.csv (+ jacobi_err.txt).
# Each PE is a separate process (PE_RANK/PE_SIZE), joined by NVSHMEM's unique-id bootstrap over loopback.
# NVLink multicast stays off (NVSHMEM_DISABLE_NVLS=1): the lent machines forbid it.
set -u
cd "$(dirname "$0")"
STEPS="${1:-info build p2p bench jacobi}"
O="${OUT:-/tmp/nvsh_out}"; mkdir -p "$O"
B=/tmp/nvsh_build; mkdir -p $B
export NVSHMEM_DISABLE_NVLS=1 NCCL_NVLS_ENABLE=0 TORCH_SYMM_MEM_DISABLE_MULTICAST=1
export NVSHMEM_REMOTE_TRANSPORT=none          # one node: P2P over NVLink only
export NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME="${NVSHMEM_BOOTSTRAP_UID_SOCK_IFNAME:-lo}"
NV="$(python3 -c 'import nvidia;print(list(nvidia.__path__)[0])')/nvshmem"
export LD_LIBRARY_PATH="$NV/lib:${LD_LIBRARY_PATH:-}"
E="$O/env.txt"
has() { case " $STEPS " in *" $1 "*) return 0;; esac; return 1; }

# run "$@" as PEs 0..n-1 (one per GPU); PE 0's stdout to $OUTF, everyone's stderr to $ERRF
launch() {
  local n=$1 t=$2; shift 2
  local uid=/tmp/nvsh_uid.$$.$RANDOM; rm -f $uid
  local pids=()
  for ((r = 0; r < n; r++)); do
    if [ $r -eq 0 ]; then
      PE_RANK=$r PE_SIZE=$n NVSH_UID_FILE=$uid timeout $t "$@" >>"$OUTF" 2>>"$ERRF" & pids+=($!)
    else
      PE_RANK=$r PE_SIZE=$n NVSH_UID_FILE=$uid timeout $t "$@" >>"$OUTF.pe$r" 2>>"$ERRF" & pids+=($!)
    fi
  done
  local rc=0; for p in "${pids[@]}"; do wait $p || rc=$?; done
  for ((r = 1; r < n; r++)); do [ -f "$OUTF.pe$r" ] && { sed "s/^/[pe$r] /" "$OUTF.pe$r" >>"$ERRF"; rm -f "$OUTF.pe$r"; }; done
  echo "launch rc=$rc: $*" >>"$ERRF"; return $rc
}

if has info; then
  { date -u; echo "=== nvidia-smi"; nvidia-smi; echo "=== topo -m"; nvidia-smi topo -m; echo "=== nvlink -s"; nvidia-smi nvlink -s
    echo "=== query"; nvidia-smi --query-gpu=name,pci.bus_id,clocks.sm,clocks.max.sm,clocks.mem,pcie.link.gen.current,pcie.link.width.current,power.draw,temperature.gpu --format=csv
    echo "=== nvcc"; nvcc --version; echo "=== nvshmem"; echo "$NV"; ls "$NV/lib"; grep -h "define NVSHMEM_VENDOR_MAJOR_VERSION\|define NVSHMEM_VENDOR_MINOR_VERSION\|define NVSHMEM_VENDOR_PATCH_VERSION" -r "$NV/include" | head
    python3 -m pip show nvidia-nvshmem-cu13 2>/dev/null | head -3; echo "=== mpirun"; which mpirun && mpirun --version | head -2
    echo "=== cpu"; nproc; grep -m1 "model name" /proc/cpuinfo; uname -r; } >"$E" 2>&1
fi
if has build; then
  FL="-O3 -rdc=true -arch=sm_90 -std=c++17 -I$NV/include"
  LK="-L$NV/lib -l:libnvshmem_host.so.3 -lnvshmem_device -Xlinker -rpath=$NV/lib"
  t0=$(date +%s)
  nvcc -O3 -arch=sm_90 -std=c++17 p2p_bench.cu -o $B/p2p_bench >>"$E" 2>&1 &
  nvcc $FL nvsh_bench.cu -o $B/nvsh_bench $LK >>"$E" 2>&1 &
  nvcc $FL jacobi_nvshmem.cu -o $B/jacobi_nvshmem $LK >>"$E" 2>&1 &
  wait; echo "=== build took $(( $(date +%s) - t0 )) s"; ls -la $B >>"$E"
fi
if has p2p; then
  timeout 120 $B/p2p_bench >"$O/p2p.csv" 2>>"$E"; echo "p2p rc=$?" | tee -a "$E"
fi
if has bench; then
  OUTF="$O/bench.csv" ERRF="$O/bench_err.txt"
  for g in ${BENCH_GROUPS:-pingpong solo gchase putbw sync}; do   # one process pair per group: a hang costs one group
    launch 2 90 $B/nvsh_bench $g; echo "bench $g rc=$?"
  done
fi
if has jacobi; then
  OUTF="$O/jacobi.csv" ERRF="$O/jacobi_err.txt"
  for cfg in ${JACOBI_CFGS:-2048:1000:45 8192:300:60 16384:200:90}; do   # nx=ny : iterations : timeout s
    set -- ${cfg//:/ }
    for n in 1 2; do launch $n $3 $B/jacobi_nvshmem -nx $1 -ny $1 -niter $2 -reps ${JREPS:-3}; echo "jacobi $1 npes $n rc=$?"; done
  done
fi
echo "=== clocks after" >>"$E"; nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv >>"$E" 2>&1
