/**
 * Kernel-level ncu metrics from the per-instruction counters: each metric is a sum over the
 * instructions of one class (LDG, STS, BRA, …). Also the per-instruction source metrics of ncu's
 * Source Counters page.
 */
import type { InstructionCounters } from '../../types/report.schema.js';
import type { InstrClass, Program } from '../exec/compile.js';
import type { InstrCounters } from '../exec/counters.js';
import type { Instr, SpecialReg } from '../ir/types.js';
import { localRequests } from '../exec/localOps.js';

type Acc = (i: number) => number;

export function kernelMetrics(prog: Program, c: InstrCounters, blocks: number, warps: number): Record<string, number> {
  const meta = prog.meta;
  const sum = (classes: InstrClass[], f: Acc): number => {
    let s = 0;
    for (let i = 0; i < meta.length; i++) {
      const m = meta[i];
      if (m && m.counted && classes.includes(m.cls)) s += f(i);
    }
    return s;
  };
  const all: InstrClass[] = [...new Set(meta.filter((m) => m.counted).map((m) => m.cls))];
  const at = (arr: Float64Array): Acc => (i) => arr[i] as number;
  const inst = sum(all, at(c.inst));
  const threads = sum(all, at(c.threads));
  const threadsOn = sum(all, at(c.threadsPredOn));
  const branches = sum(['branch'], at(c.inst));
  const divergent = sum(['branch'], at(c.divergent));
  const ldWf = sum(['lds', 'ldgen'], at(c.wavefronts));
  const ldWfIdeal = sum(['lds', 'ldgen'], at(c.wavefrontsIdeal));
  const stWf = sum(['sts', 'stgen'], at(c.wavefronts));
  const stWfIdeal = sum(['sts', 'stgen'], at(c.wavefrontsIdeal));
  // generic LD/ST (genericOps.ts): executions with lanes in shared memory count as shared accesses with
  // their wavefronts, the rest as global ones with their requests and sectors, as ncu counts them
  const genShared = (cls: InstrClass): number => sum([cls], at(c.sharedExec));
  const genGlobal = (cls: InstrClass): number => sum([cls], (i) => (c.requests[i] as number) - (c.sharedExec[i] as number));
  const atomsWf = sum(['atoms'], at(c.wavefronts));
  const atomsWfIdeal = sum(['atoms'], at(c.wavefrontsIdeal));
  // an LDGSTS's shared-memory writes: in ncu's shared total, not in op_st (surprise 9)
  const ldgstsWf = sum(['ldgsts'], at(c.wavefronts));
  const ldgstsWfIdeal = sum(['ldgsts'], at(c.wavefrontsIdeal));
  // ncu's op_misc: instructions that pass the shared-memory data pipe without a shared access, one
  // wavefront per warp instruction (test/fidelity/probes/shared_misc_probe.cu on the H200): an S2R of a
  // register that differs between threads (SR_TID.X, TID.Y, SR_LANEID; not SR_CTAID, SR_VIRTUALSMID, S2UR)
  // and a SHFL (1.17-1.41 there, the rest not imitated); VOTE and MATCH none
  const sregs = new Set(meta.flatMap((m) => (m.instr?.op === 'special' ? [m.instr.sreg] : [])));
  const miscWf = sum(['move', 'warp'], (i) => (meta[i]?.sharedPipe === true || passesSharedPipe(meta[i]?.instr, sregs) ? (c.inst[i] as number) : 0));
  // the ADU pipe: constant loads (LDC and LDC.64 — NVSHMEM's device state —, not the uniform ULDC), the read of the shared window's base
  // (SR_CgaCtaId), EXIT and block barriers. The H200 counts 3.0 per warp in the g_ld_*/g_st_* launches
  // (LDC R1, LDC of blockDim, EXIT), 4.0 in occ_regs_64 (+ the LDC of its int parameter), 5.1 in
  // sync_reduce_shfl (here 2 LDC, SR_CgaCtaId, 1.25 EXIT, a barrier: 5.25) and 6.0 in the transposes
  // (here 5): test/fidelity/probes/sol_breakdown_h200.csv; with a barrier counted twice the occ_smem_*
  // launches (32 per warp) would be twice as ADU-bound as their SM Throughput on the H200 allows
  const adu = sum(['move', 'exit', 'bar'], (i) => (meta[i]!.cls !== 'move' || meta[i]!.opcode === 'LDC' || meta[i]!.opcode === 'LDC.64' || meta[i]!.opcode === 'S2UR' ? (c.inst[i] as number) : 0));
  const m: Record<string, number> = {
    'smsp__inst_executed.sum': inst,
    'sm__inst_executed_pipe_adu.sum': adu,
    'smsp__thread_inst_executed.sum': threads,
    'smsp__thread_inst_executed_pred_on.sum': threadsOn,
    'smsp__sass_inst_executed_op_global_ld.sum': sum(['ldg'], at(c.requests)) + genGlobal('ldgen'),
    'smsp__sass_inst_executed_op_global_st.sum': sum(['stg'], at(c.requests)) + genGlobal('stgen'),
    'smsp__sass_inst_executed_op_global_atom.sum': sum(['atom'], (i) => (meta[i]?.opcode.startsWith('ATOMG') ? (c.requests[i] as number) : 0)),
    'smsp__sass_inst_executed_op_global_red.sum': sum(['atom'], (i) => (meta[i]?.opcode.startsWith('RED') ? (c.requests[i] as number) : 0)),
    'smsp__sass_inst_executed_op_shared_ld.sum': sum(['lds'], at(c.requests)) + genShared('ldgen'),
    'smsp__sass_inst_executed_op_shared_st.sum': sum(['sts'], at(c.requests)) + genShared('stgen'),
    'smsp__sass_inst_executed_op_local_ld.sum': sum(['ldl'], at(c.requests)),
    'smsp__sass_inst_executed_op_local_st.sum': sum(['stl'], at(c.requests)),
    // L1 requests of local accesses: one per 4-byte word of the element (localOps.ts localRequests)
    'l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum': sum(['ldl'], (i) => (c.requests[i] as number) * localRequests(meta[i]!.bytes)),
    'l1tex__t_requests_pipe_lsu_mem_local_op_st.sum': sum(['stl'], (i) => (c.requests[i] as number) * localRequests(meta[i]!.bytes)),
    'l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum': sum(['ldl'], at(c.sectors)),
    'l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum': sum(['stl'], at(c.sectors)),
    // the frames are modelled L1-resident (localOps.ts): every local load sector hits
    'l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum': sum(['ldl'], at(c.l1Hits)),
    'l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss.sum': sum(['ldl'], (i) => (c.sectors[i] as number) - (c.l1Hits[i] as number)),
    'smsp__sass_inst_executed_op_ldgsts.sum': sum(['ldgsts'], at(c.requests)),
    // LDGSTS requests and sectors count as global loads (ground truth surprise 9)
    'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum': sum(['ldg', 'ldgsts'], at(c.requests)) + genGlobal('ldgen'),
    'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum': sum(['stg'], at(c.requests)) + genGlobal('stgen'),
    // ATOM and RED are separate L1TEX ops: on the H200 op_atom counts the ATOMG requests only, one per
    // warp instruction, and the REDs go to op_red (simpleAtomics_testKernel: 1,024 atom requests for
    // 1,024 ATOMG and 4,608 REDG; test/fidelity/groundtruth/cuda-samples)
    'l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum': sum(['atom'], (i) => (meta[i]?.opcode.startsWith('ATOMG') ? (c.requests[i] as number) : 0)),
    'l1tex__t_requests_pipe_lsu_mem_global_op_red.sum': sum(['atom'], (i) => (meta[i]?.opcode.startsWith('RED') ? (c.requests[i] as number) : 0)),
    'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum': sum(['ldg', 'ldgsts', 'ldgen'], at(c.sectors)),
    'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum': sum(['stg', 'stgen'], at(c.sectors)),
    'l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum': sum(['atom'], (i) => (meta[i]?.opcode.startsWith('ATOMG') ? (c.sectors[i] as number) : 0)),
    'l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum': sum(['atom'], (i) => (meta[i]?.opcode.startsWith('RED') ? (c.sectors[i] as number) : 0)),
    'smsp__sass_inst_executed_op_branch.sum': branches,
    // ncu's unpatched branch count takes EXIT in as well: both H200 launches profiled with --set full
    // (g_ld_u32_stride32, the unpadded transpose) execute no SASS branch and count 131,072, their warps
    'smsp__inst_executed_op_branch.sum': branches + sum(['exit'], at(c.inst)),
    'smsp__sass_branch_targets.sum': branches,
    'smsp__sass_branch_targets_threads_divergent.sum': divergent,
    // ncu's branch efficiency: share of executed branches whose threads all went one way; 0 with no branch (surprise 6)
    'smsp__sass_average_branch_targets_threads_uniform.pct': branches > 0 ? (100 * (branches - divergent)) / branches : 0,
    'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum': ldWf,
    'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum': stWf,
    'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_misc.sum': miscWf,
    // shared atomics (ATOMS): one instruction per warp execution with an active lane, their wavefronts
    // and those above the conflict-free minimum (the bank model's, as for STS)
    'smsp__inst_executed_op_shared_atom.sum': sum(['atoms'], at(c.requests)),
    'smsp__sass_inst_executed_op_shared_atom.sum': sum(['atoms'], at(c.requests)),
    'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum': atomsWf,
    'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum': atomsWf - atomsWfIdeal,
    'l1tex__data_pipe_lsu_wavefronts_mem_shared.sum': ldWf + stWf + atomsWf + ldgstsWf + miscWf,
    'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum': ldWf - ldWfIdeal,
    'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum': stWf - stWfIdeal,
    'l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum': ldWf - ldWfIdeal + (stWf - stWfIdeal) + (atomsWf - atomsWfIdeal) + (ldgstsWf - ldgstsWfIdeal),
    'sm__ctas_launched.sum': blocks,
    'smsp__warps_launched.sum': warps,
  };
  // a generic access's bytes are its global and shared lanes' together (genericOps.ts)
  const ldBytes = sum(['ldg', 'ldgsts', 'ldgen'], at(c.bytes));
  const stBytes = sum(['stg', 'stgen'], at(c.bytes));
  const ldSectors = m['l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum'] as number;
  const stSectors = m['l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum'] as number;
  if (ldSectors > 0) m['smsp__sass_average_data_bytes_per_sector_mem_global_op_ld.ratio'] = ldBytes / ldSectors;
  if (stSectors > 0) m['smsp__sass_average_data_bytes_per_sector_mem_global_op_st.ratio'] = stBytes / stSectors;
  for (const [cls, op] of [['ldl', 'ld'], ['stl', 'st']] as const) {
    const sectors = sum([cls], at(c.sectors));
    if (sectors > 0) m[`smsp__sass_average_data_bytes_per_sector_mem_local_op_${op}.ratio`] = sum([cls], at(c.bytes)) / sectors;
  }
  return m;
}

/** a SHFL, or an S2R of SR_TID.* or SR_LANEID (the IR's warp id is SR_TID.X shifted in SASS: one S2R with threadIdx.x) */
function passesSharedPipe(i: Instr | undefined, sregs: ReadonlySet<SpecialReg>): boolean {
  if (i?.op === 'shfl') return true;
  if (i?.op !== 'special') return false;
  switch (i.sreg) {
    case 'tid.x': case 'tid.y': case 'tid.z': case 'laneid': return true;
    case 'warpid': return !sregs.has('tid.x');
    default: return false;
  }
}

/** the Source Counters of every instruction (ncu's per-SASS source metrics) */
export function instructionCounters(prog: Program, c: InstrCounters): InstructionCounters[] {
  const out: InstructionCounters[] = [];
  prog.meta.forEach((m, i) => {
    if (!m.counted) return;
    const metrics: Record<string, number> = {
      inst_executed: c.inst[i] as number,
      thread_inst_executed: c.threads[i] as number,
      thread_inst_executed_true: c.threadsPredOn[i] as number,
    };
    if (m.cls === 'ldg' || m.cls === 'stg' || m.cls === 'atom' || m.cls === 'ldgsts' || m.cls === 'ldgen' || m.cls === 'stgen') {
      const sectors = c.sectors[i] as number;
      const ideal = c.sectorsIdeal[i] as number;
      metrics.memory_l2_theoretical_sectors_global = sectors;
      metrics.memory_l2_theoretical_sectors_global_ideal = ideal;
      metrics.derived__memory_l2_theoretical_sectors_global_excessive = Math.max(0, sectors - ideal);
      metrics.memory_l1_tag_requests_global = c.tagLookups[i] as number;
      metrics.memory_l1_hit_sectors_global = c.l1Hits[i] as number;
    }
    if (m.cls === 'ldl' || m.cls === 'stl') metrics.memory_l2_theoretical_sectors_local = c.sectors[i] as number;
    if (m.cls === 'lds' || m.cls === 'sts' || m.cls === 'atoms' || m.cls === 'ldgsts' || m.cls === 'ldgen' || m.cls === 'stgen') {
      const wf = c.wavefronts[i] as number;
      const ideal = c.wavefrontsIdeal[i] as number;
      metrics.memory_l1_wavefronts_shared = wf;
      metrics.memory_l1_wavefronts_shared_ideal = ideal;
      metrics.derived__memory_l1_wavefronts_shared_excessive = Math.max(0, wf - ideal);
      const req = c.requests[i] as number;
      metrics.derived__memory_l1_conflicts_shared_nway = req > 0 ? wf / req : 0;
    }
    if (m.cls === 'branch') metrics.smsp__branch_targets_threads_divergent = c.divergent[i] as number;
    out.push({ index: i, opcode: m.opcode, line: m.line, metrics });
  });
  return out;
}
