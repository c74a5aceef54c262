/**
 * Warpsight's twin of pingpong_probe.cu (issue #39): block 0 and block 1 pass a round counter back and
 * forth through two device-scope flags, block 0 writing `words` ints before each release store and
 * block 1 summing them after its acquire. The H200's cycles per round trip are in
 * pingpong_probe_h200.csv; test/fidelity/memory_model.test.ts compares.
 */
import { defineKernel, i32, ptr, u32, type Val } from 'warpsight';

export const PP_ROUNDS = 2000;

type Mode = 'relaxed' | 'acqrel' | 'seqcst_dev' | 'seqcst_sys';

function pp(name: string, mode: Mode, threads: number, words: number) {
  return defineKernel({
    name,
    params: { f: ptr('global', i32), data: ptr('global', i32) },
    launch: { grid: 2, block: threads },
    setup: (h) => ({ f: h.alloc(i32, 1024, 'flags'), data: h.alloc(i32, 16384, 'data') }),
    body: (k, { f, data }) => {
      const tid = k.threadIdx.x.cast(i32);
      // e += blockDim.x, as the probe's C steps (a run-time step: nvcc keeps the loops as written)
      const bdim = k.blockDim.x.cast(i32);
      const ref = (at: number) => k.atomicRef(f.at(at), mode === 'seqcst_sys' ? 'system' : 'device');
      const store = (at: number, v: Val) => (mode === 'relaxed' ? ref(at).store(v, 'relaxed') : mode === 'acqrel' ? ref(at).store(v, 'release') : ref(at).store(v));
      const load = (at: number): Val => (mode === 'relaxed' ? ref(at).load('relaxed') : mode === 'acqrel' ? ref(at).load('acquire') : ref(at).load());
      const spin = (at: number, r: Val) => k.while(() => load(at).ne(r), () => {});
      k.for(1, PP_ROUNDS + 1, 1, (r) => {
        k.if(k.blockIdx.x.eq(0), () => {
          if (words > 0) k.for(tid, words, bdim, (e) => data.at(e).store(r.add(e)));
          k.syncthreads();
          k.if(tid.eq(0), () => {
            store(0, r);
            spin(32, r);
          });
          k.syncthreads();
        }, () => {
          k.if(tid.eq(0), () => spin(0, r));
          k.syncthreads();
          if (words > 0) {
            const s = k.let(u32, 0);
            // read as unsigned through the pointer (a cast of the loaded value is no SASS instruction)
            const udata = data.as(u32);
            k.for(tid, words, bdim, (e) => s.set(s.add(udata.at(e).get())));
            k.when(s.eq(0xdeadbeef), () => data.at(0).store(1));
          }
          k.syncthreads();
          k.if(tid.eq(0), () => store(32, r));
        });
      });
    },
  });
}

/** H200 cycles per round trip (pingpong_probe_h200.csv, 256 threads) */
export const PP_H200: Record<string, number> = {
  pp_relaxed: 1267.6,
  pp_acqrel: 2316.1,
  pp_seqcst_dev: 2496.0,
  pp_seqcst_sys: 4613.5,
  pp_acqrel_data: 4234.3,
};

export const ppRelaxed = pp('pp_relaxed', 'relaxed', 256, 0);
export const ppAcqrel = pp('pp_acqrel', 'acqrel', 256, 0);
export const ppSeqcstDev = pp('pp_seqcst_dev', 'seqcst_dev', 256, 0);
export const ppSeqcstSys = pp('pp_seqcst_sys', 'seqcst_sys', 256, 0);
export const ppAcqrelData = pp('pp_acqrel_data', 'acqrel', 256, 1024);
