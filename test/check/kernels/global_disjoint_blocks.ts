// Race-free: every thread of every block writes its own element, including u8 elements whose
// 4-byte words are shared by two warps (sub-word accesses of other bytes do not conflict).
import { defineKernel, ptr, u8, u32 } from 'warpsight';

export default defineKernel({
  name: 'global_disjoint_blocks',
  params: { out: ptr('global', u32), bytes: ptr('global', u8) },
  launch: { grid: 4, block: 64 },
  setup: (host) => ({ out: host.alloc(u32, 256, 'out'), bytes: host.alloc(u8, 260, 'bytes') }),
  body: (k, { out, bytes }) => {
    const i = k.blockIdx.x.mul(64).add(k.threadIdx.x);
    out.at(i).store(i.mul(2));
    // misaligned by one: a warp's 32 bytes straddle the words of its neighbours
    bytes.at(i.add(1)).store(i.cast(u8));
  },
});
