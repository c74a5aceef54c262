/**
 * Synchronising two blocks through memory: the flag/data handoff of seed 002 and family 7 of the H200
 * ground truth (micro.cu `sync_flag_*`, launched as there: 2 blocks of 256 threads). Block 0 writes
 * 1024 ints, then sets a flag; block 1 waits for the flag, sums the data, and sets an ack flag that
 * block 0 waits for before the next of 200 rounds. Flags are ints: [0] the flag, [32] the ack (another
 * 128-byte line), [64] an error code when a wait gave up after 2^24 polls.
 *
 * The versions, in the seed's order of improvement:
 * - flag_plain: a plain `int*` flag. Wrong: nothing orders the data before the flag (no release, no
 *   acquire), nvcc may keep the flag in a register and never read it again, and a weak load may be
 *   served from the SM's L1, which another SM's store does not update. So it goes here: block 0's
 *   L1 keeps the ack line it first read, block 0 never sees block 1's ack, and its wait gives up
 *   (after PLAIN_SPIN_CAP polls here, micro.cu's 2^24 on a GPU): the check fails with error_code=1.
 *   The atomic versions' acquire loads bypass L1 and invalidate it (CCTL.IVALL).
 * - sync_flag_sys_seqcst: `cuda::atomic<int, thread_scope_system>` with the default seq_cst. Each
 *   poll is `MEMBAR.SC.SYS; CCTL.IVALL; LD.E.STRONG.SYS; CCTL.IVALL`: a system-wide fence per poll
 *   (the H200: 1,159 cycles) for a flag no other device or host thread reads. 646.6 µs on the H200.
 * - sync_flag_dev_seqcst: device scope, still seq_cst: a MEMBAR.SC.GPU per poll (391 cycles).
 * - sync_flag_dev_acqrel: device scope with release stores and acquire loads: a poll is
 *   `LD.E.STRONG.GPU; CCTL.IVALL`, an L2 round trip (282 cycles). 414.3 µs on the H200.
 * - sync_flag_wait_notify: `flag.wait(r - 1, acquire)` / `notify_all()`: libcu++ polls 17 times, then
 *   polls with back-off (NANOSLEEP once the wait is 40 µs old); notify_all is no instruction. The
 *   rounds here are short, so it polls like the acquire loop: 405.2 µs on the H200, and no spinning
 *   warp burns issue slots in a long wait.
 */
import { type DevicePtr, type Host, defineKernel, i32, ptr, u32, type KernelBuilder, type PtrVal, type Val } from 'warpsight';

export const ROUNDS = 200;
export const WORDS = 1024;
/** micro.cu's SPIN_CAP: a wait gives up after this many polls and writes an error code */
const SPIN_CAP = 1 << 24;
/** the plain flag's: it never sees the ack, so give up soon (a short run that fails its check) */
const PLAIN_SPIN_CAP = 1 << 8;
const FLAG = 0;
const ACK = 32;
const ERROR = 64;

type Scheme = 'plain' | 'sys_seqcst' | 'dev_seqcst' | 'dev_acqrel' | 'wait_notify';

function setup(h: Host) {
  // cudaMemset(data, 0x11, …); flags and sums zeroed
  const data = h.alloc(i32, WORDS, 'data', () => 0x11111111);
  const flags = h.alloc(i32, 1024, 'flags');
  const sums = h.alloc(u32, ROUNDS * 256, 'sums');
  return { data, flags, sums };
}

/** micro.cu's check: no wait gave up, and every round's per-thread sums */
function check(h: Host, p: { flags: DevicePtr; sums: DevicePtr }): string | null {
  const err = h.readNumber(p.flags, i32, ERROR);
  if (err !== 0) return `error_code=${err}: block ${err - 1}'s wait for ${err === 1 ? 'the ack' : 'the flag'} gave up (it never saw the other block's store)`;
  for (let r = 1; r <= ROUNDS; r++)
    for (let t = 0; t < 256; t++) {
      let e = 0;
      for (let x = t; x < WORDS; x += 256) e = (e + r * 7919 + x) >>> 0;
      const got = h.readNumber(p.sums, u32, (r - 1) * 256 + t);
      if (got !== e) return `round ${r} thread ${t}: sum ${got}, expected ${e}`;
    }
  return null;
}

/** how each version stores a flag and waits for one */
function signal(k: KernelBuilder, flags: PtrVal, at: number, v: Val, scheme: Scheme): void {
  const p = flags.at(at);
  if (scheme === 'plain') p.store(v);
  else if (scheme === 'sys_seqcst') k.atomicRef(p, 'system').store(v);
  else if (scheme === 'dev_seqcst') k.atomicRef(p, 'device').store(v);
  else {
    const a = k.atomicRef(p, 'device');
    a.store(v, 'release');
    if (scheme === 'wait_notify') a.notifyAll();
  }
}

/** while (flag != r) if (++spins > SPIN_CAP) { error; break; } — or flag.wait(r - 1) */
function await_(k: KernelBuilder, flags: PtrVal, at: number, r: Val, scheme: Scheme, code: number): void {
  const p = flags.at(at);
  if (scheme === 'wait_notify') {
    k.atomicRef(p, 'device').wait(r.sub(1), 'acquire');
    return;
  }
  const load = (): Val =>
    scheme === 'plain' ? p.get() : scheme === 'sys_seqcst' ? k.atomicRef(p, 'system').load() : scheme === 'dev_seqcst' ? k.atomicRef(p, 'device').load() : k.atomicRef(p, 'device').load('acquire');
  const spins = k.let(i32, 0);
  k.while(() => load().ne(r), () => {
    spins.set(spins.add(1));
    k.if(spins.gt(scheme === 'plain' ? PLAIN_SPIN_CAP : SPIN_CAP), () => {
      flags.at(ERROR).store(code);
      k.break();
    });
  });
}

function handoff(name: string, scheme: Scheme, description: string) {
  return defineKernel({
    name,
    description,
    params: { data: ptr('global', i32), flags: ptr('global', i32), sums: ptr('global', u32) },
    launch: { grid: 2, block: 256 },
    registers: 20,
    setup,
    check,
    body: (k, { data, flags, sums }) => {
      const tid = k.threadIdx.x.cast(i32);
      // e += blockDim.x, as micro.cu's ho_produce / ho_consume step (a run-time step: nvcc keeps the loops)
      const bdim = k.blockDim.x.cast(i32);
      k.for(1, ROUNDS + 1, 1, (r) => {
        k.if(k.blockIdx.x.eq(0), () => {
          // ho_produce: data[e] = r * 7919 + e
          k.for(tid, WORDS, bdim, (e) => data.at(e).store(r.mul(7919).add(e)));
          k.syncthreads();
          k.if(tid.eq(0), () => {
            signal(k, flags, FLAG, r, scheme);
            await_(k, flags, ACK, r, scheme, 1);
          });
          k.syncthreads();
        }, () => {
          k.if(tid.eq(0), () => await_(k, flags, FLAG, r, scheme, 2));
          k.syncthreads();
          // ho_consume: each thread sums its 4 words
          const s = k.let(u32, 0);
          // (unsigned)data[e]: the same bits, read through an unsigned pointer
          const udata = data.as(u32);
          k.for(tid, WORDS, bdim, (e) => s.set(s.add(udata.at(e).get())));
          sums.at(r.sub(1).mul(256).add(tid)).store(s);
          k.syncthreads();
          k.if(tid.eq(0), () => signal(k, flags, ACK, r, scheme));
        });
      });
    },
  });
}

export const syncFlagPlain = handoff('flag_plain', 'plain', 'seed 002 handoff with a plain int flag: the poll may read a stale L1 line (broken)');
export const syncFlagSysSeqcst = handoff('sync_flag_sys_seqcst', 'sys_seqcst', 'handoff with cuda::atomic<int, thread_scope_system> seq_cst (a system fence per poll)');
export const syncFlagDevSeqcst = handoff('sync_flag_dev_seqcst', 'dev_seqcst', 'handoff with thread_scope_device, still seq_cst (a device fence per poll)');
export const syncFlagDevAcqrel = handoff('sync_flag_dev_acqrel', 'dev_acqrel', 'handoff with thread_scope_device release stores and acquire loads');
export const syncFlagWaitNotify = handoff('sync_flag_wait_notify', 'wait_notify', 'handoff with atomic wait()/notify_all(): libcu++ polling with back-off');
