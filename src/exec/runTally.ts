/**
 * The per-slot counters of straight runs of arithmetic, kept per run. A run's instructions execute
 * under one mask (arithmetic changes no mask), so each of its counted slots gets the same increments
 * as the run's first: the scheduler adds them there once per run instead of once per instruction, and
 * they reach the slots when the grid stops (done or parked). Only when nothing observes each issue as
 * it happens (the timing model does).
 */
export class RunTally {
  /** per run start: executions, threads active, threads predicated on */
  private readonly times: Float64Array;
  private readonly threads: Float64Array;
  private readonly threadsOn: Float64Array;
  private used = false;

  constructor(
    private readonly runLength: Uint8Array,
    /** per slot: whether it is counted (an instruction of the SASS) */
    private readonly counted: Uint8Array,
  ) {
    this.times = new Float64Array(runLength.length);
    this.threads = new Float64Array(runLength.length);
    this.threadsOn = new Float64Array(runLength.length);
  }

  add(start: number, active: number, on: number): void {
    this.times[start] = (this.times[start] as number) + 1;
    this.threads[start] = (this.threads[start] as number) + active;
    this.threadsOn[start] = (this.threadsOn[start] as number) + on;
    this.used = true;
  }

  /** the runs' counts into the slots' counters (instructions, threads, threads predicated on) */
  flush(inst: Float64Array, thr: Float64Array, thrOn: Float64Array): void {
    if (!this.used) return;
    for (let s = 0; s < this.runLength.length; s++) {
      const n = this.times[s] as number;
      if (n === 0) continue;
      const t = this.threads[s] as number;
      const on = this.threadsOn[s] as number;
      for (let j = s, e = s + (this.runLength[s] as number); j < e; j++) {
        if (this.counted[j] === 0) continue;
        inst[j] = (inst[j] as number) + n;
        thr[j] = (thr[j] as number) + t;
        thrOn[j] = (thrOn[j] as number) + on;
      }
    }
    this.times.fill(0);
    this.threads.fill(0);
    this.threadsOn.fill(0);
    this.used = false;
  }
}
