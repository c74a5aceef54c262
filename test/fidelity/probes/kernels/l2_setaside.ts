/**
 * The set-aside probe's sweep (test/fidelity/probes/l2_setaside_probe.cu, measured on the H200 with
 * application replay and the L2 kept between kernels): with 0-10 sixteenths of the L2 set aside for
 * persisting lines and no persisting access anywhere, 64 MiB of stores (`l2sa_st_u128`) and micro.cu's
 * g_ld_u32_coalesced (`l2sa_ld_u32`), each followed by a 128 MiB read stream (`l2sa_after`) whose
 * DRAM writes are the dirty bytes the kernel left: how much dirty data the L2 keeps, by set-aside.
 */
import { defineProgram, u32, u8 } from 'warpsight';
import { G_THREADS } from '../../../../kernels/lib/groundtruth.js';
import { MIB, readStream } from './readStream.js';
import { storeOnly } from './l2_drain.js';
import { probe } from './l2_dirty_retention.js';

/** sixteenths of the L2 set aside (the probe's, less 2: as flat as 0, 3 and 4) */
export const SIXTEENTHS = [0, 3, 4, 6, 8, 10] as const;
const L2_BYTES = 62_914_560;
const AFTER_MIB = 128;

const st = storeOnly('l2sa_st_u128', 0);
const ld = probe({ name: 'l2sa_ld_u32', elem: u32, stride: 1 });
const after = readStream('l2sa_after');

export default defineProgram({
  name: 'l2sa',
  description: `64 MiB of stores and a load-then-store copy with ${SIXTEENTHS.join(', ')} sixteenths of the L2 set aside`,
  run: (ctx) => {
    const h = ctx.host;
    const input = h.alloc(u8, G_THREADS * 4, 'in');
    const out = h.alloc(u8, G_THREADS * 16, 'out');
    const junk = h.alloc(u32, (AFTER_MIB * MIB) / 4, 'junk');
    const sink = h.alloc(u32, 1024, 'sink');
    const drain = () => ctx.launch(after, { b: junk, n: (AFTER_MIB * MIB) / 16, sink });
    for (const q of SIXTEENTHS) {
      ctx.setPersistingL2Limit((q * L2_BYTES) / 16);
      ctx.launch(st, { in: input, out, sink });
      drain();
      ctx.launch(ld, { in: input, out, sink });
      drain();
    }
  },
});
