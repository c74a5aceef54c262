/**
 * Seed 003's single-GPU Jacobi loop (NVIDIA multi-gpu-programming-models, jacobi.cu): a 2-D Laplace
 * solve whose iteration is memset(norm) → jacobi kernel (5-point stencil, block sums of the squared
 * residue added atomically) → copy the norm to the host → synchronize, until the norm converges.
 *
 *  - jacobi_streams: every iteration submitted to the stream, one call at a time;
 *  - jacobi_graph: each iteration's work captured once into two graphs — even and odd, since a and
 *    a_new swap — instantiated, and launched (cudaGraphLaunch) until the norm converges, as the
 *    seed's "Capture Stream Work into a Graph" does. Both give the same field and iteration count.
 *
 *   warpsight profile kernels/jacobi_graph.ts -k jacobi_graph --trace jacobi.json
 */
import { defineKernel, defineProgram, f32, u32, ptr, type DevicePtr, type Host, type ProgramContext } from 'warpsight';

const BX = 32;
const BY = 8;

const jacobi = defineKernel({
  name: 'jacobi_kernel',
  description: 'a_new = mean of a\'s four neighbours; l2_norm += the block\'s sum of squared residues',
  params: { aNew: ptr('global', f32), a: ptr('global', f32), l2: ptr('global', f32), nx: u32, ny: u32 },
  defaults: { nx: 128, ny: 128 },
  launch: ({ nx, ny }) => ({ grid: [Math.ceil(((nx as number) - 2) / BX), Math.ceil(((ny as number) - 2) / BY)], block: [BX, BY] }),
  setup: (h, { nx, ny }) => {
    const a = initialField(h, nx as number, ny as number, 'a');
    return { a, aNew: initialField(h, nx as number, ny as number, 'a_new'), l2: h.alloc(f32, 1, 'l2_norm') };
  },
  body: (k, { aNew, a, l2, nx, ny }) => {
    const ix = k.blockIdx.x.mul(k.blockDim.x).add(k.threadIdx.x).add(1);
    const iy = k.blockIdx.y.mul(k.blockDim.y).add(k.threadIdx.y).add(1);
    const local = k.let(f32, 0);
    k.if(iy.lt(ny.sub(1)).and(ix.lt(nx.sub(1))), () => {
      const c = iy.mul(nx).add(ix);
      const v = a.at(c.add(1)).get().add(a.at(c.sub(1)).get()).add(a.at(c.add(nx)).get()).add(a.at(c.sub(nx)).get()).mul(0.25);
      aNew.at(c).store(v);
      const r = v.sub(a.at(c).get());
      local.set(r.mul(r));
    });
    // the warp's sum by shuffles, one atomic per warp (the seed uses cub::BlockReduce per block)
    for (let o = 16; o > 0; o >>= 1) local.set(local.add(k.shfl('down', local, o)));
    k.when(k.laneId.eq(0), () => l2.at(0).reduce('add', local));
  },
});

/** the boundary: left and right columns sin(2 pi y), top and bottom rows 0 (jacobi.cu initialize_boundaries) */
function initialField(h: Host, nx: number, ny: number, name: string): DevicePtr {
  return h.alloc(f32, nx * ny, name, (i) => {
    const x = i % nx;
    const y = Math.floor(i / nx);
    return x === 0 || x === nx - 1 ? Math.fround(Math.sin((2 * Math.PI * y) / (ny - 1))) : 0;
  });
}

interface Setup {
  a: DevicePtr;
  aNew: DevicePtr;
  l2: DevicePtr;
  norm: ReturnType<ProgramContext['mallocHost']>;
}

function setup(ctx: ProgramContext, nx: number, ny: number): Setup {
  const a = initialField(ctx.host, nx, ny, 'a');
  const aNew = initialField(ctx.host, nx, ny, 'a_new');
  return { a, aNew, l2: ctx.malloc(4, 'l2_norm'), norm: ctx.mallocHost(4, 'l2_norm_h') };
}

function readNorm(s: Setup): number {
  return Math.sqrt(s.norm.view().getFloat32(0, true));
}

/** one iteration's work on stream `st` reading `a`, writing `aNew` */
function iteration(ctx: ProgramContext, st: Setup, src: DevicePtr, dst: DevicePtr, stream: ReturnType<ProgramContext['streamCreate']>, nx: number, ny: number): void {
  ctx.memsetAsync(st.l2, 0, 4, stream);
  ctx.launch(jacobi, { aNew: dst, a: src, l2: st.l2, nx, ny }, undefined, { stream, profile: false });
  ctx.memcpyAsync(st.norm, st.l2, 4, stream);
}

const defaults = { nx: 128, ny: 128, tol: 1e-4, iterMax: 400 };

/**
 * the seed's loop: submit iteration i, wait for its norm, until it is below tol or iterMax; then the
 * figures both versions report (the field is in a_new after an odd number of iterations)
 */
function solve(ctx: ProgramContext, st: Setup, s: ReturnType<ProgramContext['streamCreate']>, nx: number, ny: number, tol: number, iterMax: number, submit: (i: number) => void): void {
  let iter = 0;
  let norm = 1;
  while (norm > tol && iter < iterMax) {
    submit(iter);
    ctx.streamSynchronize(s);
    norm = readNorm(st);
    iter++;
  }
  ctx.value('iterations', iter);
  ctx.value('l2_norm', norm);
  ctx.value('field_checksum', checksum(ctx.host, iter % 2 ? st.aNew : st.a, nx, ny));
  ctx.value('us_per_iteration', ctx.hostTimeNs() / 1000 / iter, 'us');
}

export const jacobiStreams = defineProgram({
  name: 'jacobi_streams',
  description: 'seed 003 Jacobi: each iteration submitted call by call, norm checked every iteration',
  defaults,
  run: (ctx, { nx, ny, tol, iterMax }) => {
    const st = setup(ctx, nx as number, ny as number);
    const s = ctx.streamCreate({ nonBlocking: true, name: 'compute stream' });
    // iteration i reads a (even) or a_new (odd) and writes the other
    solve(ctx, st, s, nx as number, ny as number, tol as number, iterMax as number, (i) => {
      const [src, dst] = i % 2 ? [st.aNew, st.a] : [st.a, st.aNew];
      iteration(ctx, st, src, dst, s, nx as number, ny as number);
    });
  },
});

export const jacobiGraph = defineProgram({
  name: 'jacobi_graph',
  description: 'seed 003 Jacobi: even and odd iterations captured into two graphs, replayed until the norm converges',
  defaults,
  run: (ctx, { nx, ny, tol, iterMax }) => {
    const st = setup(ctx, nx as number, ny as number);
    const s = ctx.streamCreate({ nonBlocking: true, name: 'compute stream' });
    // capture the two iterations once (a → a_new, and a_new → a)
    const execs = [
      [st.a, st.aNew],
      [st.aNew, st.a],
    ].map(([src, dst]) => {
      ctx.streamBeginCapture(s);
      iteration(ctx, st, src as DevicePtr, dst as DevicePtr, s, nx as number, ny as number);
      const g = ctx.streamEndCapture(s);
      ctx.value(`graph_nodes`, g.nodes.length);
      return { exec: ctx.graphInstantiate(g), graph: g };
    });
    ctx.value('dot_bytes', ctx.graphDebugDotPrint((execs[0] as (typeof execs)[number]).graph).length);
    solve(ctx, st, s, nx as number, ny as number, tol as number, iterMax as number, (i) => ctx.graphLaunch((execs[i % 2] as (typeof execs)[number]).exec, s));
  },
});

/** a weighted sum of the field: equal fields give equal sums (float sums in one fixed order) */
function checksum(h: Host, p: DevicePtr, nx: number, ny: number): number {
  let s = 0;
  for (let i = 0; i < nx * ny; i += 7) s += h.readNumber(p, f32, i) * ((i % 13) + 1);
  return s;
}
