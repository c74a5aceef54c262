/**
 * A copy engine: one DMA transfer at a time, first come first served. The GPU has one per direction
 * between host and device and one for copies and memsets within device memory, so an H2D copy
 * overlaps a D2H copy and a kernel, but two H2D copies take turns.
 */
import type { EventQueue } from '../sim/eventQueue.js';

export type EngineId = 'h2d' | 'd2h' | 'd2d';

interface Transfer {
  ns: number;
  onStart: (t: number) => void;
  onDone: (t: number) => void;
}

export class CopyEngine {
  private readonly waiting: Transfer[] = [];
  private busy = false;
  /** ns this engine spent transferring */
  busyNs = 0;

  constructor(
    readonly id: EngineId,
    private readonly clock: EventQueue,
  ) {}

  /** a transfer of `ns` on this engine, started when the ones before it are done */
  submit(ns: number, onStart: (t: number) => void, onDone: (t: number) => void): void {
    this.waiting.push({ ns, onStart, onDone });
    if (!this.busy) this.next();
  }

  private next(): void {
    const t = this.waiting.shift();
    if (!t) {
      this.busy = false;
      return;
    }
    this.busy = true;
    const start = this.clock.now;
    t.onStart(start);
    this.busyNs += t.ns;
    this.clock.at(start + t.ns, () => {
      t.onDone(start + t.ns);
      this.next();
    });
  }
}
