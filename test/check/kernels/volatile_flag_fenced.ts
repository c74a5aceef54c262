// Race-free: the hand-off of polled_plain_flag done the pre-libcu++ way that is correct: a volatile
// flag, __threadfence() before setting it and after seeing it (release and acquire patterns).
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'volatile_flag_fenced',
  params: { data: ptr('global', u32), flag: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: 2, block: 32 },
  setup: (host) => ({ data: host.alloc(u32, 1, 'data'), flag: host.alloc(u32, 1, 'flag'), out: host.alloc(u32, 1, 'out') }),
  body: (k, { data, flag, out }) => {
    k.if(k.threadIdx.x.eq(0), () => {
      k.if(
        k.blockIdx.x.eq(1),
        () => {
          data.at(0).store(42);
          k.membar('gpu');
          flag.at(0).store(1, { cache: 'strong' });
        },
        () => {
          k.while(() => flag.at(0).get({ cache: 'strong' }).eq(0), () => {});
          k.membar('gpu');
          out.at(0).store(data.at(0).get());
        },
      );
    });
  },
});
