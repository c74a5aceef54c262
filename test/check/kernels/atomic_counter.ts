// Race-free: every thread of every block adds to one counter with atomicAdd (device scope: the
// accesses are morally strong, so they do not race).
import { defineKernel, ptr, u32 } from 'warpsight';

export default defineKernel({
  name: 'atomic_counter',
  params: { count: ptr('global', u32) },
  launch: { grid: 4, block: 64 },
  setup: (host) => ({ count: host.alloc(u32, 1, 'count') }),
  check: (host, { count }) => (host.readNumber(count, u32, 0) === 256 ? null : `count = ${host.readNumber(count, u32, 0)}, expected 256`),
  body: (k, { count }) => {
    count.at(0).reduce('add', 1);
  },
});
