import type { L2Hint } from './accessProperty.js';

/**
 * Write combining of partially written sectors on their way from an SM to the L2. The partial sectors
 * of a store request are held back until the SM's next store request; if that request comes from the
 * same group (see GlobalAccess.group: the warps of one block issuing back to back, or one warp) and
 * writes the same sector, the two writes reach the L2 as one. Otherwise the held sectors go on alone,
 * as they do at the end of a scheduler round or launch and before a load or atomic of the SM touches
 * their line.
 *
 * [MEAS] test/fidelity/probes/l2_store_merge_probe.cu (H200, lts__t_sectors_srcunit_tex_op_write over
 * the L1's 5 store sectors per warp of out[i + 1] = i | 1): 256 / 1024 threads per block 0.855 / 0.842
 * (83 / 82 % of the sectors shared by two warps of a block written once), one warp per block 1.000
 * (warps of different blocks never), the block's warps in reverse order 0.855 (either order), odd warps
 * 1000 cycles late 1.000 (only stores issued together), the stores of a copy waiting on its loads 0.974,
 * two stride-2 stores of one warp 0.501 of the L1's sectors (its own stores always).
 */
export class StoreCombiner {
  /** per SM: held entries, and the group they came from */
  private readonly count: Uint8Array;
  private readonly groupOf: Float64Array;
  /** per SM, SLOTS entries: line, sector bit, bytes written, L2 hint */
  private readonly line: Float64Array;
  private readonly bit: Uint8Array;
  private readonly bytes: Uint32Array;
  private readonly hint: Uint8Array;
  /** SMs holding sectors */
  private held = 0;

  constructor(
    private readonly sms: number,
    /** sends one line's partial sectors to the L2 (mask, byte masks per sector, hint, sm) */
    private readonly send: (line: number, mask: number, bytes: Uint32Array, hint: L2Hint, sm: number) => void,
  ) {
    this.count = new Uint8Array(sms);
    this.groupOf = new Float64Array(sms);
    this.line = new Float64Array(sms * SLOTS);
    this.bit = new Uint8Array(sms * SLOTS);
    this.bytes = new Uint32Array(sms * SLOTS);
    this.hint = new Uint8Array(sms * SLOTS);
  }

  /** a store request of `group` begins at SM `sm`: what another group left held goes on alone */
  begin(sm: number, group: number): void {
    if (this.count[sm] !== 0 && this.groupOf[sm] !== group) this.flush(sm);
    this.groupOf[sm] = group;
  }

  /**
   * the request writes sectors `mask` of `line`, `full` of them whole, the others with byte masks
   * `lb[j]`: the first `held` entries (the previous request's) it also writes are merged in
   * (consumed); returns `full` with the sectors the merge completed
   */
  merge(sm: number, held: number, line: number, mask: number, full: number, lb: Uint32Array): number {
    const base = sm * SLOTS;
    for (let k = base; k < base + held; k++) {
      const b = this.bit[k]!;
      if (b === 0 || this.line[k] !== line || (mask & b) === 0) continue;
      this.bit[k] = 0;
      if ((full & b) !== 0) continue;
      const j = 31 - Math.clz32(b);
      const m = (lb[j]! | this.bytes[k]!) >>> 0;
      lb[j] = m;
      if (m === 0xffffffff) full |= b;
    }
    return full;
  }

  /** hold the partial sectors `part` of `line` (byte masks lb[j]) until the SM's next store request */
  hold(sm: number, line: number, part: number, lb: Uint32Array, hint: L2Hint): void {
    for (let j = 0; j < 4; j++) {
      const b = 1 << j;
      if ((part & b) === 0) continue;
      const n = this.count[sm]!;
      const k = sm * SLOTS + n;
      this.line[k] = line;
      this.bit[k] = b;
      this.bytes[k] = lb[j]!;
      this.hint[k] = hint;
      if (n === 0) this.held++;
      this.count[sm] = n + 1;
    }
  }

  /** the request has ended: held sectors it did not write go on alone; its own partial ones stay */
  end(sm: number, keepFrom: number): void {
    const n = this.count[sm]!;
    if (keepFrom === 0) return;
    const base = sm * SLOTS;
    this.sendRange(sm, base, base + keepFrom);
    // move the request's own entries to the front
    let w = base;
    for (let k = base + keepFrom; k < base + n; k++, w++) {
      this.line[w] = this.line[k]!;
      this.bit[w] = this.bit[k]!;
      this.bytes[w] = this.bytes[k]!;
      this.hint[w] = this.hint[k]!;
    }
    this.count[sm] = w - base;
    if (w === base) this.held--;
  }

  /** entries held by SM `sm` (the index where a request's own entries begin) */
  heldAt(sm: number): number {
    return this.count[sm]!;
  }

  /** a load or atomic of SM `sm` reaches the L2 for `line`: what the SM holds of it goes first */
  beforeRead(sm: number, line: number): void {
    const n = this.count[sm]!;
    for (let k = sm * SLOTS, e = k + n; k < e; k++)
      if (this.bit[k] !== 0 && this.line[k] === line) {
        this.flush(sm);
        return;
      }
  }

  /** SM `sm` sends everything it holds */
  flush(sm: number): void {
    const n = this.count[sm]!;
    if (n === 0) return;
    const base = sm * SLOTS;
    this.count[sm] = 0;
    this.held--;
    this.sendRange(sm, base, base + n);
  }

  /** every SM sends everything it holds */
  flushAll(): void {
    if (this.held === 0) return;
    for (let sm = 0; sm < this.sms; sm++) this.flush(sm);
  }

  private readonly lineBytes = new Uint32Array(4);

  /** send entries [from, to) of one SM, one L2 write per run of entries in the same line */
  private sendRange(sm: number, from: number, to: number): void {
    const lb = this.lineBytes;
    let k = from;
    while (k < to) {
      if (this.bit[k] === 0) {
        k++;
        continue;
      }
      const line = this.line[k]!;
      const hint = this.hint[k] as L2Hint;
      let mask = 0;
      while (k < to && (this.bit[k] === 0 || (this.line[k] === line && this.hint[k] === hint))) {
        const b = this.bit[k]!;
        if (b !== 0) {
          mask |= b;
          lb[31 - Math.clz32(b)] = this.bytes[k]!;
        }
        k++;
      }
      this.send(line, mask, lb, hint, sm);
    }
  }
}

/** held sectors per SM: one request's partial sectors and the next one's (a warp's request writes at most 32 sectors) */
const SLOTS = 64;
