/**
 * Places in a warp's register file for a kernel's registers: values whose lifetimes do not overlap
 * share one, as ptxas's register allocation lets them. The IR gives every value a register of its
 * own; an unrolled loop has a copy of each for every body (family 5's pass 2: 295 registers, 50 kB
 * per warp, 200 MB for a launch's resident warps), which made the interpreter's register traffic miss
 * the host's caches.
 *
 * A value takes part when it is defined once, is no k.let() variable, and every read comes after its
 * definition in program order (a read before it would be of the previous trip of a loop); it lives
 * from its definition to its last read, and to the end of any loop that reads it but does not define
 * it (it is read again on every trip). Another value takes its place only strictly after that, so no
 * instruction writes a place it still reads in another lane (a shuffle reads other lanes' sources).
 * Inactive lanes leave a place as it was: a value defined under a condition is only read under it
 * (the builder confines values to their block), so what those lanes keep is never read.
 * (src/ir/registers.ts estimateRegisters takes lifetimes the same way for the occupancy estimate; it
 * counts every value, this keeps out those that cannot share.)
 */
import { REG_ARRAY } from './regFile.js';
import { readsOf, regs, writesOf } from '../ir/regUse.js';
import type { Instr, KernelIR, Storage } from '../ir/types.js';

interface Occurrence {
  at: number;
  /** the loops around it, outermost first */
  loops: readonly number[];
}

/**
 * per register, the register whose place it takes (itself, when it has one of its own); `skip`
 * registers (shared by all warps) are left to themselves
 */
export function registerPlaces(kernel: KernelIR, storages: readonly Storage[], skip: (r: number) => boolean): Int32Array {
  const n = storages.length;
  const defs: Occurrence[][] = Array.from({ length: n }, () => []);
  const uses: Occurrence[][] = Array.from({ length: n }, () => []);
  const pinned = new Uint8Array(n);
  const loopEnd: number[] = [];
  let at = 0;
  const walk = (list: readonly Instr[], loops: readonly number[]): void => {
    for (const i of list) {
      at++;
      if (i.op === 'if') {
        for (const r of regs(i.cond)) uses[r]!.push({ at, loops });
        walk(i.then, loops);
        if (i.else) walk(i.else, loops);
        continue;
      }
      if (i.op === 'loop') {
        const id = loopEnd.length;
        loopEnd.push(0);
        const inner = [...loops, id];
        walk(i.head, inner);
        at++;
        for (const r of regs(i.cond)) uses[r]!.push({ at, loops: inner });
        walk(i.body, inner);
        loopEnd[id] = ++at;
        continue;
      }
      // a cp.async's data registers are written when the copy lands, not here
      if (i.op === 'cpasync') for (const r of i.tmps) pinned[r] = 1;
      for (const r of readsOf(i)) uses[r]!.push({ at, loops });
      for (const r of writesOf(i)) defs[r]!.push({ at, loops });
    }
  };
  walk(kernel.body, []);

  const place = Int32Array.from({ length: n }, (_, r) => r);
  const live: { r: number; from: number; to: number }[] = [];
  for (let r = 0; r < n; r++) {
    const def = defs[r]!;
    if (pinned[r] || skip(r) || kernel.regs[r]?.mutable || def.length !== 1) continue;
    const d = def[0]!;
    let to = d.at;
    let ok = true;
    for (const u of uses[r]!) {
      if (u.at <= d.at) ok = false;
      // the outermost loop around the read that is not around the definition: read on every trip
      let k = 0;
      while (k < u.loops.length && k < d.loops.length && u.loops[k] === d.loops[k]) k++;
      to = Math.max(to, k < u.loops.length ? loopEnd[u.loops[k]!]! : u.at);
    }
    if (ok) live.push({ r, from: d.at, to });
  }

  // linear scan in order of definition, a pool of free places per register width
  live.sort((a, b) => a.from - b.from || a.r - b.r);
  const free = new Map<number, number[]>();
  const busy: { place: number; to: number; width: number }[] = [];
  for (const v of live) {
    for (let k = busy.length - 1; k >= 0; k--) {
      const b = busy[k]!;
      if (b.to < v.from) {
        const pool = free.get(b.width) ?? [];
        pool.push(b.place);
        free.set(b.width, pool);
        busy.splice(k, 1);
      }
    }
    const width = REG_ARRAY[storages[v.r]!].BYTES_PER_ELEMENT;
    const p = free.get(width)?.pop() ?? v.r;
    place[v.r] = p;
    busy.push({ place: p, to: v.to, width });
  }
  return place;
}
