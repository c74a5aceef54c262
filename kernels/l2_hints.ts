/**
 * The seed's L2 residency examples (seeds/002, "Prefetching memory" / "Discarding or resetting memory"):
 *  - `l2_hint_pin`: cuda::apply_access_property(a, 32*sizeof(int), persisting{}) by one thread per
 *    128-byte line (prefetch.global.L2::evict_last): the lines come into the set-aside;
 *  - `l2_hint_read`: every thread reads a: all L2 hits, no DRAM reads;
 *  - `l2_hint_write_discard`: each warp writes its 128-byte line of b, then discards it
 *    (cuda::discard_memory: no write-back of the dirty line);
 *  - `l2_hint_normal`: apply_access_property(a, ..., normal{}): the lines lose their persisting status;
 *  - `l2_hint_flush`: a 64 MiB read after the reset; its DRAM writes are what was left dirty (b's
 *    discarded lines are not among them).
 * Profile with `--cache-control none` (the launches share one L2 state).
 */
import { type DevicePtr, defineKernel, defineProgram, f32, i32, ptr, u32 } from 'warpsight';

const A_FLOATS = 1 << 20; // 4 MiB
const B_FLOATS = 1 << 20;
const FLUSH_FLOATS = 16 << 20; // 64 MiB
const BLOCK = 256;

/** cuda::apply_access_property(a, n, prop): one L2 prefetch with that priority per 128-byte line */
function applyAccessProperty(name: string, prop: 'persisting' | 'normal', description: string) {
  return defineKernel({
    name,
    description,
    params: { a: ptr('global', f32), n: i32 },
    launch: { grid: A_FLOATS / 32 / BLOCK, block: BLOCK },
    setup: () => {
      throw new Error('launched by the l2_hints program');
    },
    body: (k, { a, n }) => {
      const line = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x).cast(i32);
      k.when(line.mul(32).lt(n), () => k.l2Prefetch(a.add(line.mul(32)), prop));
    },
  });
}

const pin = applyAccessProperty('l2_hint_pin', 'persisting', 'apply_access_property(persisting): one prefetch.global.L2::evict_last per 128-byte line');
const normal = applyAccessProperty('l2_hint_normal', 'normal', 'apply_access_property(normal): prefetch.global.L2::evict_normal per line, demoting the persisting lines');

const read = defineKernel({
  name: 'l2_hint_read',
  description: 'out[i] = a[i]',
  params: { a: ptr('global', f32), out: ptr('global', f32) },
  launch: { grid: A_FLOATS / BLOCK, block: BLOCK },
  setup: () => {
    throw new Error('launched by the l2_hints program');
  },
  body: (k, { a, out }) => {
    const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
    out.at(i).store(a.at(i).get(), { cache: 'cs' });
  },
});

const writeDiscard = defineKernel({
  name: 'l2_hint_write_discard',
  description: 'b[i] = i, then each warp discards its 128-byte line (discard.global.L2)',
  params: { b: ptr('global', f32) },
  launch: { grid: B_FLOATS / BLOCK, block: BLOCK },
  setup: () => {
    throw new Error('launched by the l2_hints program');
  },
  body: (k, { b }) => {
    const i = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
    b.at(i).store(i.cast(f32));
    k.syncwarp();
    k.when(k.laneId.eq(0), () => k.l2Discard(b.add(i)));
  },
});

const flush = defineKernel({
  name: 'l2_hint_flush',
  description: 'reads 64 MiB: its DRAM writes are the dirty bytes left in L2',
  params: { p: ptr('global', f32), sink: ptr('global', f32), n: u32 },
  launch: { grid: 132 * 8, block: BLOCK },
  setup: () => {
    throw new Error('launched by the l2_hints program');
  },
  body: (k, { p, sink, n }) => {
    const acc = k.let(f32, 0);
    const t = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x);
    k.for(t, n, k.gridDim.x.mul(k.blockDim.x), (i) => acc.set(acc.add(p.at(i).get())));
    sink.at(t).store(acc);
  },
});

let bufs: { a: DevicePtr; out: DevicePtr } | null = null;

export default defineProgram({
  name: 'l2_hints',
  description: 'apply_access_property (persisting, normal) and discard_memory, as in the seed',
  run: (ctx) => {
    const h = ctx.host;
    const a = h.alloc(f32, A_FLOATS, 'a', (i) => (i % 1000) * 0.5);
    const out = h.alloc(f32, A_FLOATS, 'out');
    const b = h.alloc(f32, B_FLOATS, 'b');
    const fl = h.alloc(f32, FLUSH_FLOATS, 'flush');
    const sink = h.alloc(f32, 132 * 8 * BLOCK, 'sink');
    bufs = { a, out };
    ctx.setPersistingL2Limit(Number.MAX_SAFE_INTEGER);
    ctx.resetPersistingL2Cache();
    ctx.launch(pin, { a, n: A_FLOATS });
    ctx.launch(read, { a, out });
    ctx.launch(writeDiscard, { b });
    ctx.launch(normal, { a, n: A_FLOATS });
    ctx.resetPersistingL2Cache();
    ctx.setPersistingL2Limit(0);
    ctx.launch(flush, { p: fl, sink, n: FLUSH_FLOATS });
  },
  check: (host) => {
    if (!bufs) return 'the program did not run';
    for (const i of [0, 1, 31, 32, 999, 1000, 65535, A_FLOATS - 1]) {
      const got = host.readNumber(bufs.out, f32, i);
      const want = (i % 1000) * 0.5;
      if (got !== want) return `out[${i}] = ${got}, expected ${want}`;
    }
    return null;
  },
});
