/**
 * cuda-samples' scanExclusiveShared (kernels/cuda_samples/scan.ts) as test/fidelity/probes/spread's
 * run_wavefronts.sh varied it on the H200 (h200/wf_*.csv): 1,056 blocks (one wave, 8 per SM), and
 * with its uint4 load replaced by a value computed from pos (`nl`), with 4,096 and 1,056 blocks. The
 * H200's extra shared wavefronts (issue #40): none in one wave; without the load none on the stores
 * and +10,066 loads with 4,096 blocks, +302 with 1,056.
 */
import { defineKernel, defineProgram, ptr, u32, vec } from 'warpsight';
import { hashMod, scan1Inclusive, uint4Of } from '../../../../kernels/cuda_samples/lib.js';

const N = 1 << 22;
const ARRAY_LENGTH = 1024;
const THREADBLOCK_SIZE = 256;
const uint4 = vec(u32, 4);

/** the scan's kernel; `load` false: idata4 = make_uint4(pos, pos ^ 1, pos ^ 2, pos ^ 3) */
function scanKernel(name: string, load: boolean) {
  return defineKernel({
    name,
    description: `scanExclusiveShared${load ? '' : ' without its global load'} (test/fidelity/probes/spread run_wavefronts.sh)`,
    params: { d_Dst: ptr('global', uint4), d_Src: ptr('global', uint4), size: u32 },
    defaults: { size: ARRAY_LENGTH },
    launch: { grid: N / (4 * THREADBLOCK_SIZE), block: THREADBLOCK_SIZE },
    registers: 18,
    setup: (h) => ({ d_Src: h.alloc(u32, N, 'src', (i) => hashMod(i, 0x5ca, 1024)), d_Dst: h.alloc(u32, N, 'dst') }),
    body: (k, { d_Dst, d_Src, size }) => {
      const s_Data = k.shared(u32, [2 * THREADBLOCK_SIZE]).at(0).addr;
      const pos = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
      const { x, y, z, w } = load ? uint4Of(d_Src.at(pos).load()) : { x: pos, y: pos.xor(1), z: pos.xor(2), w: pos.xor(3) };
      const y1 = y.add(x);
      const z1 = z.add(y1);
      const w1 = w.add(z1);
      const oval = scan1Inclusive(k, w1, s_Data, size.shr(2)).sub(w1);
      d_Dst.at(pos).store([x.add(oval).sub(x), y1.add(oval).sub(y), z1.add(oval).sub(z), w1.add(oval).sub(w)]);
    },
  });
}

// named apart from the cuda-samples run's scanExclusiveShared (fidelityKernels() takes the first of a name)
const withLoad = scanKernel('scanExclusiveShared_wave', true);
const noLoad = scanKernel('scanExclusiveShared_nl', false);

/** the H200's launches of h200/wf_g1056.csv, wf_nl.csv and wf_nl1056.csv, in that order */
export default defineProgram({
  name: 'scan_variants',
  description: "scanExclusiveShared in one wave and without its load (the H200's wf_g1056, wf_nl, wf_nl1056)",
  run: (ctx) => {
    const h = ctx.host;
    const src = h.alloc(u32, N, 'src', (i) => hashMod(i, 0x5ca, 1024));
    const dst = h.alloc(u32, N, 'dst');
    const args = { d_Dst: dst, d_Src: src, size: ARRAY_LENGTH };
    ctx.launch(withLoad, args, { grid: 1056, block: THREADBLOCK_SIZE });
    ctx.launch(noLoad, args, { grid: 4096, block: THREADBLOCK_SIZE });
    ctx.launch(noLoad, args, { grid: 1056, block: THREADBLOCK_SIZE });
  },
});
