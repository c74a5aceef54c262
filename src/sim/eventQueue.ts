/**
 * The simulated clock: one event queue ordered by (time, sequence). Ties break by the order events
 * were scheduled, so a run is reproducible byte for byte; nothing here reads the wall clock.
 * Times are nanoseconds of simulated time (doubles).
 */
export interface SimEvent {
  time: number;
  seq: number;
  run: () => void;
}

export class EventQueue {
  private readonly heap: SimEvent[] = [];
  private seq = 0;
  /** the time of the event being run (or last run) */
  now = 0;
  /** events run so far: the runtime's own work, for the bench's events-per-second figure */
  processed = 0;

  get size(): number {
    return this.heap.length;
  }

  /** run `fn` at `time` (never before now: the past cannot be changed) */
  at(time: number, run: () => void): void {
    const e: SimEvent = { time: Math.max(time, this.now), seq: this.seq++, run };
    const h = this.heap;
    h.push(e);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(e, h[p] as SimEvent)) break;
      h[i] = h[p] as SimEvent;
      i = p;
    }
    h[i] = e;
  }

  /** the time of the next event, or Infinity */
  peekTime(): number {
    return this.heap.length ? (this.heap[0] as SimEvent).time : Infinity;
  }

  /** run the next event; false when there is none */
  step(): boolean {
    const h = this.heap;
    const top = h[0];
    if (!top) return false;
    const last = h.pop() as SimEvent;
    if (h.length) {
      let i = 0;
      const n = h.length;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && before(h[r] as SimEvent, h[l] as SimEvent) ? r : l;
        if (!before(h[c] as SimEvent, last)) break;
        h[i] = h[c] as SimEvent;
        i = c;
      }
      h[i] = last;
    }
    this.now = top.time;
    this.processed++;
    top.run();
    return true;
  }

  /** run every event at or before `time`; the clock ends at `time` */
  runUntil(time: number): void {
    while (this.peekTime() <= time) this.step();
    if (time > this.now && Number.isFinite(time)) this.now = time;
  }
}

function before(a: SimEvent, b: SimEvent): boolean {
  return a.time < b.time || (a.time === b.time && a.seq < b.seq);
}
