/**
 * The L2 residency probe (test/fidelity/probes/l2_residency_probe.cu, measured on the H200 with
 * application replay and the L2 kept between kernels): what the L2 holds after micro.cu's 8- and
 * 16-byte coalesced copies. Each configuration: a read stream that leaves the L2 clean
 * (`l2rs_clean`), the copy at full occupancy (`l2rs_u64_coalesced`, `l2rs_u128_coalesced`), then a
 * read-back of the copy's output or input buffer from its end, newest lines first
 * (`l2rs_back_out`, `l2rs_back_in`): its L2 hits and DRAM reads tell how much of that buffer the copy
 * left resident, its DRAM writes the dirty lines it pushes out; the next clean-up writes back the
 * rest. The probe's clean-up streams 512 MiB; 128 MiB clean everything here.
 */
import { defineProgram, u32, u64, u8 } from 'warpsight';
import { G_THREADS } from '../../../../kernels/lib/groundtruth.js';
import { MIB, readStream } from './readStream.js';
import { U128, probe } from './l2_dirty_retention.js';

const CLEAN_MIB = 128;

const copies = [
  { kernel: probe({ name: 'l2rs_u64_coalesced', elem: u64, stride: 1 }), bytes: 8 },
  { kernel: probe({ name: 'l2rs_u128_coalesced', elem: U128, stride: 1 }), bytes: 16 },
];

export default defineProgram({
  name: 'l2rs',
  description: 'a copy between a clean L2 and a newest-first read-back of its output or input',
  run: (ctx) => {
    const h = ctx.host;
    const input = h.alloc(u8, G_THREADS * 16 + 4096, 'in');
    const out = h.alloc(u8, G_THREADS * 16, 'out');
    const junk = h.alloc(u32, (CLEAN_MIB * MIB) / 4, 'junk');
    const sink = h.alloc(u32, 1024, 'sink');
    const clean = readStream('l2rs_clean');
    const back = { out: readStream('l2rs_back_out', true), in: readStream('l2rs_back_in', true) };
    const cleanUp = () => ctx.launch(clean, { b: junk, n: (CLEAN_MIB * MIB) / 16, sink });
    for (let rep = 0; rep < 2; rep++) {
      for (const target of ['out', 'in'] as const) {
        for (const c of copies) {
          cleanUp();
          ctx.launch(c.kernel, { in: input, out, sink });
          ctx.launch(back[target], { b: target === 'out' ? out : input, n: (G_THREADS * c.bytes) / 16, sink });
        }
      }
    }
    cleanUp();
  },
});
