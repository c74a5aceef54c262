/**
 * The L2 line-lifetime probe (test/fidelity/probes/l2_copy_probe.cu, measured on the H200 with
 * application replay and the L2 kept between kernels): one block per SM reads (`l2c_read`) or writes
 * (`l2c_write`) its own chunk of an 8 MiB buffer R, the whole GPU then streams X MiB of other data
 * (reads only, `*_stream`), and each SM reads its chunk again (`*_r2`). How much of R the second read
 * still finds, in its near partition (tex lookup hits) or only at the line's home (fabric lookups),
 * shows how long home lines, copies of far lines, and dirty lines live behind a read stream.
 * Each configuration starts from an L2 holding only clean lines of another buffer: the probe's
 * 512 MiB read stream, here 128 MiB (as thorough: two L2s of lines and their copies).
 */
import { defineKernel, defineProgram, ptr, u32 } from 'warpsight';
import { I4, MIB, SMS, keep, readStream } from './readStream.js';

/** int4 per block: the probe's rBytes / 16 / sms */
const CHUNK = Math.floor((8 * MIB) / 16 / SMS);
/** the probe's X values (MiB of the stream between the two reads) */
export const X_MIB = [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 48, 64, 96] as const;
const FLUSH_MIB = 128;
/** one block per SM: 160 KB of dynamic shared memory keeps a second one off */
const ONE_PER_SM = 160 * 1024;

const R_PARAMS = { r: ptr('global', I4), sink: ptr('global', u32) };

function readR(name: string) {
  return defineKernel({
    name,
    description: `each block (one per SM) reads its ${CHUNK}-int4 chunk of R`,
    params: R_PARAMS,
    launch: { grid: SMS, block: 1024, dynamicShared: ONE_PER_SM },
    setup: () => {
      throw new Error('launched by the l2c_* programs only');
    },
    body: (k, { r, sink }) => {
      const acc = k.let(u32, 0);
      const base = k.blockIdx.x.mul(CHUNK);
      k.for(k.threadIdx.x, CHUNK, k.blockDim.x, (i) => {
        const v = r.at(base.add(i)).load();
        if (!('parts' in v)) throw new Error('int4 expected');
        acc.set(acc.xor(v.x).xor(v.w));
      });
      keep(k, acc, sink);
    },
  });
}

const writeR = defineKernel({
  name: 'l2c_write_r1',
  description: `each block (one per SM) writes its ${CHUNK}-int4 chunk of R`,
  params: R_PARAMS,
  launch: { grid: SMS, block: 1024, dynamicShared: ONE_PER_SM },
  setup: () => {
    throw new Error('launched by the l2c_* programs only');
  },
  body: (k, { r }) => {
    const base = k.blockIdx.x.mul(CHUNK);
    k.for(k.threadIdx.x, CHUNK, k.blockDim.x, (i) => r.at(base.add(i)).store([i, 1, 2, 3]));
  },
});

function program(mode: 'read' | 'write') {
  const first = mode === 'read' ? readR('l2c_read_r1') : writeR;
  const second = readR(`l2c_${mode}_r2`);
  const flush = readStream('l2c_flush');
  const stream = readStream(`l2c_${mode}_stream`);
  return defineProgram({
    name: `l2c_${mode}`,
    description: `R ${mode === 'read' ? 'read' : 'written'} per SM, X MiB streamed, R read again; X = ${X_MIB.join(', ')} MiB`,
    run: (ctx) => {
      const h = ctx.host;
      const r = h.alloc(u32, (8 * MIB) / 4, 'R');
      const x = h.alloc(u32, (128 * MIB) / 4, 'X');
      const junk = h.alloc(u32, (FLUSH_MIB * MIB) / 4, 'junk');
      const sink = h.alloc(u32, 1024, 'sink');
      for (const xm of X_MIB) {
        ctx.launch(flush, { b: junk, n: (FLUSH_MIB * MIB) / 16, sink }, undefined, { profile: false });
        ctx.launch(first, { r, sink });
        if (xm > 0) ctx.launch(stream, { b: x, n: (xm * MIB) / 16, sink });
        ctx.launch(second, { r, sink });
      }
    },
  });
}

export default [program('read'), program('write')];
