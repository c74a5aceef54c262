/**
 * Per-instruction counters of one launch (ncu's Source Counters). Kernel-level metrics are sums of
 * these over instructions of a kind, computed once at the end (src/metrics/kernelMetrics.ts), so the
 * interpreter's hot path only increments typed arrays indexed by the instruction.
 */
export class InstrCounters {
  /** warp-level executions (inst_executed) */
  readonly inst: Float64Array;
  /** active threads summed over executions (thread_inst_executed) */
  readonly threads: Float64Array;
  /** predicated-on threads (thread_inst_executed_true) */
  readonly threadsPredOn: Float64Array;
  /** memory: executions with at least one predicated-on thread (requests) */
  readonly requests: Float64Array;
  /** global: 32-byte sectors touched (memory_l2_theoretical_sectors_global) and the ideal */
  readonly sectors: Float64Array;
  readonly sectorsIdeal: Float64Array;
  /** global: distinct 128-byte lines looked up (memory_l1_tag_requests_global) */
  readonly tagLookups: Float64Array;
  /** global: bytes moved by predicated-on threads */
  readonly bytes: Float64Array;
  /** shared: wavefronts and the conflict-free minimum */
  readonly wavefronts: Float64Array;
  readonly wavefrontsIdeal: Float64Array;
  /** branches: executions whose active threads went two ways (smsp__branch_targets_threads_divergent) */
  readonly divergent: Float64Array;
  /** global loads: sectors served by L1 / L2 / DRAM (for latency and hit-rate per line) */
  readonly l1Hits: Float64Array;
  /** generic accesses (LD/ST): executions that had lanes pointing to shared memory (genericOps.ts) */
  readonly sharedExec: Float64Array;

  constructor(readonly n: number) {
    this.inst = new Float64Array(n);
    this.threads = new Float64Array(n);
    this.threadsPredOn = new Float64Array(n);
    this.requests = new Float64Array(n);
    this.sectors = new Float64Array(n);
    this.sectorsIdeal = new Float64Array(n);
    this.tagLookups = new Float64Array(n);
    this.bytes = new Float64Array(n);
    this.wavefronts = new Float64Array(n);
    this.wavefrontsIdeal = new Float64Array(n);
    this.divergent = new Float64Array(n);
    this.l1Hits = new Float64Array(n);
    this.sharedExec = new Float64Array(n);
  }
}
