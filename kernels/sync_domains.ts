/**
 * Seed 000's fence interference and memory synchronization domains (CUDA Programming Guide §4.14):
 * on PE 0 a "communication" kernel stores to PE 1 over NVLink (NVSHMEM nvshmem_int_p: slow writes,
 * each acknowledged ~480 ns after it leaves) on one stream, while a local compute kernel on another
 * stream updates its own array and publishes it system-wide every iteration (__threadfence_system,
 * fence.sc.sys: for a host thread or a peer that reads it).
 *
 * A system-scope fence, and a kernel's implicit flush when it completes, order every write in flight
 * of their memory synchronization domain, not just the fencing kernel's: with both kernels in domain 0
 * each of the local kernel's fences waits for the communication kernel's NVLink stores too. Launched
 * with memSyncDomain 'remote' (the default map sends it to physical domain 1, as NCCL 2.16+ tags its
 * kernels), the communication kernel's writes are no longer the local kernel's fences' business. A
 * stream whose memSyncDomainMap sends both logical domains to physical 0 undoes that: the benefit is gone.
 *
 * A device-scope fence (__threadfence; `--param sysFence=0`) does not wait for them on the H200 in any
 * domain (test/fidelity/probes/domains: 570 / 573 / 577 cycles per fence with the P2P-storing kernel in
 * the default / remote / remapped domain), so it gains nothing from domains. (The H200 also showed
 * ~160 cycles more per fence with that kernel running than alone, in every domain: contention this
 * model leaves out.)
 *
 * The price of domains: ordering *between* domains on one GPU needs system scope
 * (__threadfence_system, fence.sc.sys); a device-scope fence no longer covers the other domain's
 * writes (the guide: "cumulativity is satisfied by ensuring that cross-domain traffic is flushed to
 * the system scope ahead of time").
 *
 * The report shows, for the local kernel, warpsight__fence_wait_domain_N (warp cycles at its gpu/sys
 * fences, N its physical domain), the part spent on other kernels' writes
 * (warpsight__fence_wait_foreign_domain_N), its completion flush's wait (warpsight__flush_wait_domain_N)
 * and the membar stall reason.
 *
 *   warpsight profile kernels/sync_domains.ts -k fence_interference_same_domain
 *   warpsight profile kernels/sync_domains.ts -k fence_interference_remote_domain
 *   warpsight profile kernels/sync_domains.ts -k fence_interference_remote_mapped_to_0
 *   warpsight profile kernels/sync_domains.ts -k fence_interference_same_domain --param comm=0   (the local kernel alone)
 *   warpsight profile kernels/sync_domains.ts -k fence_interference_same_domain --param sysFence=0   (device-scope fences)
 */
import { defineKernel, defineProgram, i32, ptr, u32, type ProgramDef } from 'warpsight';

/** the communication kernel: every thread stores `iters` words into PE `peer`'s copy of dest, one by one */
export const commPut = defineKernel({
  name: 'comm_put',
  params: { dest: ptr('global', i32), iters: u32, peer: i32 },
  defaults: { iters: 64, peer: 1 },
  launch: { grid: 16, block: 256 },
  setup: (h) => ({ dest: h.alloc(i32, 16 * 256 * 64, 'dest') }),
  body: (k, { dest, iters, peer }) => {
    const tid = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x).cast(i32);
    const n = k.gridDim.x.mul(k.blockDim.x).cast(i32);
    k.for(0, iters, 1, (i) => {
      k.shmem.p(dest.add(i.cast(i32).mul(n).add(tid)), tid.add(i.cast(i32)), peer);
    });
  },
});

/** the local compute kernel: each iteration updates the thread's word and fences (`sys`: system scope, else device) */
const localKernel = (name: string, sys: boolean) =>
  defineKernel({
    name,
    params: { data: ptr('global', i32), iters: u32 },
    defaults: { iters: 32 },
    launch: { grid: 8, block: 128 },
    setup: (h) => ({ data: h.alloc(i32, 8 * 128, 'data') }),
    body: (k, { data, iters }) => {
      const tid = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
      k.for(0, iters, 1, () => {
        data.at(tid).store(data.at(tid).get().add(1));
        // __threadfence_system(): fence.sc.sys, it waits for every write in flight of the launch's
        // domain; __threadfence(): fence.sc.gpu, the thread's own (and its block's)
        if (sys) k.threadfenceSystem();
        else k.threadfence();
      });
    },
  });
export const localFenceSys = localKernel('local_fence_sys', true);
export const localFenceGpu = localKernel('local_fence_gpu', false);

type Variant = 'same' | 'remote' | 'mapped';

function interference(name: string, description: string, variant: Variant): ProgramDef {
  return defineProgram({
    name,
    description,
    pes: 2,
    // comm=0: the local kernel alone, what the remote domain should leave it as
    defaults: { commIters: 256, localIters: 32, comm: 1, sysFence: 1 },
    run: async (ctx, { commIters, localIters, comm: withComm, sysFence }) => {
      const words = 16 * 256 * (commIters ?? 256);
      const dest = ctx.shmem.malloc(4 * words, 'dest');
      const data = ctx.malloc(4 * 8 * 128, 'data');
      ctx.memsetAsync(data, 0, 4 * 8 * 128);
      await ctx.deviceSynchronize();
      await ctx.shmem.barrierAll();
      if (ctx.pe === 0) {
        const comm = ctx.streamCreate({ nonBlocking: true, name: 'communication' });
        const local = ctx.streamCreate({ nonBlocking: true, name: 'compute' });
        // seed 000's stream partitioning: both logical domains of the communication stream on physical 0
        if (variant === 'mapped') ctx.streamSetAttributes(comm, { memSyncDomainMap: { default: 0, remote: 0 } });
        if (withComm) ctx.launch(commPut, { dest, iters: commIters, peer: 1 }, undefined, { stream: comm, ...(variant === 'same' ? {} : { attributes: { memSyncDomain: 'remote' } }) });
        ctx.launch(sysFence ? localFenceSys : localFenceGpu, { data, iters: localIters }, undefined, { stream: local });
        await ctx.deviceSynchronize();
        ctx.value('local kernel result (each word = iterations)', Number(ctx.host.read(data, i32, 0)));
      }
      await ctx.shmem.barrierAll();
    },
  });
}

export const sameDomain = interference(
  'fence_interference_same_domain',
  "both kernels in domain 0: the local kernel's fences wait for the communication kernel's NVLink stores",
  'same',
);
export const remoteDomain = interference(
  'fence_interference_remote_domain',
  "the communication kernel in the remote domain (physical 1): the local kernel's fences wait for its own writes only",
  'remote',
);
export const remoteMappedTo0 = interference(
  'fence_interference_remote_mapped_to_0',
  "the communication stream maps the remote domain onto physical 0: the local kernel's fences wait again",
  'mapped',
);
