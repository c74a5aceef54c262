/**
 * Family 1 stores of the H200 ground truth (micro.cu `g_st_<type>_<pattern>`): 4M threads
 * (16384 x 256), each thread one store `out[idx(i)] = make_val(i)` and no load.
 */
import { type ElemType, type KernelBuilder, type Val, defineKernel, ptr, u8, u16, u32, u64, vec } from 'warpsight';
import { G_THREADS, sampleIndices } from './lib/groundtruth.js';

type Pattern = 'coalesced' | 'misaligned' | 'stride2' | 'stride32';

function index(p: Pattern, i: Val): Val {
  switch (p) {
    case 'coalesced': return i;
    case 'misaligned': return i.add(1);
    case 'stride2': return i.mul(2);
    case 'stride32': return i.mul(32);
  }
}
const hostIndex = (p: Pattern, i: number): number => (p === 'coalesced' ? i : p === 'misaligned' ? i + 1 : p === 'stride2' ? 2 * i : 32 * i);

/** micro.cu's make_val<T>(i) = (T)((i * 2654435761) | 1); for int4: (x|1, x+1, x+2, x+3) */
function deviceValue(k: KernelBuilder, elem: ElemType, i: Val): Val | Val[] {
  // (int)i, and the low bits of the 64-bit product are those of the 32-bit one
  const x = i.cast(u32);
  if (elem.tag === 'vec') return [x.or(1), x.add(1), x.add(2), x.add(3)];
  if (elem.kind === 'u64') return i.mul(2654435761n).or(1n);
  const v = x.mul(2654435761).or(1);
  return elem.kind === 'u32' ? v : v.cast(elem);
}
function hostValue(elem: ElemType, i: number): bigint[] {
  if (elem.tag === 'vec') return [i | 1, i + 1, i + 2, i + 3].map((x) => BigInt(x >>> 0));
  const v = (BigInt(i) * 2654435761n) | 1n;
  const bits = elem.kind === 'u64' ? 64 : elem.kind === 'u32' ? 32 : elem.kind === 'u16' ? 16 : 8;
  return [BigInt.asUintN(bits, v)];
}

function globalStore(typeName: string, elem: ElemType, pattern: Pattern) {
  const comps = elem.tag === 'vec' ? elem.n : 1;
  const comp = elem.tag === 'vec' ? elem.elem : elem;
  const bytes = elem.tag === 'vec' ? 16 : elem.kind === 'u64' ? 8 : elem.kind === 'u32' ? 4 : elem.kind === 'u16' ? 2 : 1;
  return defineKernel({
    name: `g_st_${typeName}_${pattern}`,
    description: `${bytes}-byte stores, ${pattern} pattern`,
    params: { out: ptr('global', elem) },
    launch: { grid: G_THREADS / 256, block: 256 },
    registers: 16,
    // micro.cu stores into its pre-filled `big` buffer; the bytes a kernel does not write are never
    // read, so the buffer starts zeroed here (no data is set up for 2 GiB of it)
    setup: (host) => ({ out: host.alloc(u8, 32 * G_THREADS * 16 + 4096, 'out') }),
    check: (host, { out }, { grid, block }) => {
      // the threads that ran (--grid may shrink the launch)
      for (const i of sampleIndices(grid[0] * block[0])) {
        const want = hostValue(elem, i);
        for (let c = 0; c < comps; c++) {
          const got = BigInt.asUintN(bytes / comps * 8, BigInt(host.read(out, comp, hostIndex(pattern, i) * comps + c)));
          if (got !== want[c]) return `out[${hostIndex(pattern, i)}] component ${c} = ${got}, expected ${want[c]}`;
        }
      }
      return null;
    },
    body: (k, { out }) => {
      // size_t in micro.cu: 64-bit index arithmetic, as its SASS has it
      const i = k.blockIdx.x.cast(u64).mul(k.blockDim.x.cast(u64)).add(k.threadIdx.x.cast(u64));
      out.at(index(pattern, i)).store(deviceValue(k, elem, i));
    },
  });
}

const U128 = vec(u32, 4);
export default [
  globalStore('u32', u32, 'coalesced'),
  globalStore('u32', u32, 'misaligned'),
  globalStore('u32', u32, 'stride2'),
  globalStore('u32', u32, 'stride32'),
  globalStore('u8', u8, 'coalesced'),
  globalStore('u16', u16, 'coalesced'),
  globalStore('u64', u64, 'coalesced'),
  globalStore('u64', u64, 'stride2'),
  globalStore('u128', U128, 'coalesced'),
  globalStore('u128', U128, 'stride2'),
];
