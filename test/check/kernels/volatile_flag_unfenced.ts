// Planted: a volatile flag orders nothing by itself: without __threadfence() on either side the
// data read races the data write (the flag's own accesses are strong and do not race).
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'volatile_flag_unfenced',
  params: { data: ptr('global', u32), flag: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: 2, block: 32 },
  setup: (host) => ({ data: host.alloc(u32, 1, 'data'), flag: host.alloc(u32, 1, 'flag'), out: host.alloc(u32, 1, 'out') }),
  body: (k, { data, flag, out }) => {
    k.if(k.threadIdx.x.eq(0), () => {
      k.if(
        k.blockIdx.x.eq(0),
        () => {
          data.at(0).store(42); // @first data-race
          flag.at(0).store(1, { cache: 'strong' });
        },
        () => {
          k.while(() => flag.at(0).get({ cache: 'strong' }).eq(0), () => {});
          out.at(0).store(data.at(0).get()); // @second data-race
        },
      );
    });
  },
});
