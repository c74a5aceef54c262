// Planted: seed 002's plain-int hand-off. Block 0 writes the data and then a plain flag; block 1
// polls the plain flag and reads the data. Nothing orders them: the flag is polled with weak loads
// (the compiler may hoist the load; a stale L1 line may answer), and the data read races the write.
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'polled_plain_flag',
  params: { data: ptr('global', u32), flag: ptr('global', u32), out: ptr('global', u32) },
  launch: { grid: 2, block: 32 },
  setup: (host) => ({ data: host.alloc(u32, 1, 'data'), flag: host.alloc(u32, 1, 'flag'), out: host.alloc(u32, 1, 'out') }),
  body: (k, { data, flag, out }) => {
    k.if(k.threadIdx.x.eq(0), () => {
      k.if(
        k.blockIdx.x.eq(0),
        () => {
          data.at(0).store(42); // @first data-race
          flag.at(0).store(1); // @first plain-flag-poll
        },
        () => {
          k.while(() => flag.at(0).get().eq(0), () => {}); // @second plain-flag-poll
          out.at(0).store(data.at(0).get()); // @second data-race
        },
      );
    });
  },
});
