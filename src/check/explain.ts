/** A finding's sentence and its fix, from its kind and its two accesses: small pure functions. */
import type { AccessSite, Finding } from './findings.js';

const coords = (c: readonly number[]): string => `(${c.join(',')})`;
const who = (s: AccessSite): string => `thread ${coords(s.thread)} of block ${coords(s.block)}`;
const what = (s: AccessSite): string => `${s.access}${s.scope ? ` (${s.scope} scope)` : ''} at ${s.file}:${s.line} (${s.opcode})`;
const place = (f: Finding): string =>
  `${f.space} ${f.address}${f.allocation ? ` (${f.allocation.name}+${f.allocation.offset})` : ''}`;

export function messageFor(f: Finding): string {
  const a = f.first;
  const b = f.second;
  switch (f.kind) {
    case 'data-race':
    case 'scope-race':
    case 'plain-flag-poll': {
      if (!a && f.kind === 'scope-race')
        return `scope race on ${place(f)}: ${what(b)} by ${who(b)} synchronises through host-mapped memory that the CPU reads and writes, at a scope that does not include the host`;
      if (!a) return '';
      const head =
        f.kind === 'scope-race'
          ? `${f.hazard} scope race on ${place(f)}: atomic accesses whose scopes do not include each other's threads`
          : f.kind === 'plain-flag-poll'
            ? `polled plain flag ${place(f)}: a loop's exit depends on a weak load of memory another thread writes`
            : `${f.hazard} data race on ${place(f)}`;
      return `${head}: ${what(a)} by ${who(a)}, then ${what(b)} by ${who(b)}, with nothing ordering them`;
    }
    case 'uninitialized-read':
      return `uninitialized ${place(f)} read: ${what(b)} by ${who(b)} reads bytes that no host copy, memset or kernel wrote`;
    default:
      return f.message;
  }
}

export function fixFor(f: Finding): string {
  const a = f.first;
  const b = f.second;
  const sameBlock = a !== undefined && a.block.join() === b.block.join();
  switch (f.kind) {
    case 'data-race':
      if (f.space === 'shared' || sameBlock)
        return `order them with a barrier between line ${a?.line} and line ${b.line} (__syncthreads(), or a named barrier whose thread count covers both warps)`;
      return `threads of different blocks: hand the data over with a release (a device-scope atomic store with release order, or __threadfence() before a flag write) and an acquire on the reading side, or split the work into two kernel launches`;
    case 'scope-race':
      if (!a) return `the CPU is outside device scope: use thread_scope_system (cuda::atomic_ref<T, cuda::thread_scope_system>, or __threadfence_system()) for memory the host and the GPU synchronise through (seed 000)`;
      return `the two threads are in different blocks: use thread_scope_device (gpu) atomics for memory that blocks share (block scope covers only the threads of one block)`;
    case 'plain-flag-poll':
      return `make the flag an atomic (cuda::atomic_ref<int, thread_scope_device>, load with memory_order_acquire and store with memory_order_release), or at least volatile with __threadfence() on both sides`;
    case 'uninitialized-read':
      return f.space === 'shared'
        ? `write the shared memory before reading it (and order the write and the read with __syncthreads())`
        : `initialise the buffer before the kernel reads it (cudaMemcpy or cudaMemset, or an initialiser in host.alloc)`;
    default:
      return f.fix;
  }
}
