/**
 * MIG instances as arch variants: a GPU instance gets whole GPCs' SMs and a share of the L2 and of
 * the memory (with its bandwidth), so seed 002's "split the GPU into smaller instances" can be tried:
 * `--arch h200-mig-3g`. The SM counts are the instances' multiProcessorCount on an H100/H200 (the same
 * GH100 layout); the fractions are the MIG user guide's. An instance's SMs are the first ones the
 * full GPU dispatches to, renumbered from 0 (which GPCs an instance gets is the driver's choice).
 */
import type { ArchSpec } from './sources.js';
import type { Arch } from './types.js';

interface MigProfile {
  /** the profile's compute slices: 1g, 2g, 3g, 4g, 7g */
  g: 1 | 2 | 3 | 4 | 7;
  /** its memory size name, as nvidia-smi lists it on an H200 */
  name: string;
  sms: number;
  /** eighths of the L2 and of the memory */
  eighths: number;
}

const MIG_GUIDE = 'https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html';

/** H200 (141 GB) profiles */
export const H200_MIG: readonly MigProfile[] = [
  { g: 1, name: '1g.18gb', sms: 16, eighths: 1 },
  { g: 2, name: '2g.35gb', sms: 32, eighths: 2 },
  { g: 3, name: '3g.71gb', sms: 60, eighths: 4 },
  { g: 4, name: '4g.71gb', sms: 64, eighths: 4 },
  { g: 7, name: '7g.141gb', sms: 132, eighths: 8 },
];

/** the spec of one MIG instance of `base` */
export function migInstance(base: ArchSpec, p: MigProfile): ArchSpec {
  const b = base.arch;
  const f = p.eighths / 8;
  const sms = b.smDispatchOrder.slice(0, p.sms);
  const renumber = new Map([...sms].sort((x, y) => x - y).map((sm, i) => [sm, i]));
  const arch: Arch = {
    ...b,
    id: `${b.id}-mig-${p.g}g`,
    name: `${b.name} MIG ${p.name}`,
    smCount: p.sms,
    l2Size: b.l2Size * f,
    l2Slices: b.l2Slices * f,
    l2SlicesActive: Math.round(b.l2SlicesActive * f),
    smL2Partition: [...sms].sort((x, y) => x - y).map((sm) => b.smL2Partition[sm] ?? 0),
    smDispatchOrder: sms.map((sm) => renumber.get(sm) as number),
    dramBandwidth: b.dramBandwidth * f,
    globalMemBytes: Math.floor(b.globalMemBytes * f),
    persistingL2CacheMaxSize: Math.floor(b.persistingL2CacheMaxSize * f),
    persistingL2CacheDefaultLimit: Math.floor(b.persistingL2CacheDefaultLimit * f),
    ncuReplayDirtyBytes: Math.floor(b.ncuReplayDirtyBytes * f),
  };
  const share = `[DOC] ${MIG_GUIDE}: a ${p.g}g instance has ${p.g}/7 of the compute slices and ${p.eighths}/8 of the L2 and memory`;
  const sources = {
    ...base.sources,
    id: 'Warpsight arch id',
    name: `[DOC] ${MIG_GUIDE}: profile MIG ${p.name}`,
    smCount: `[DOC] ${MIG_GUIDE}; [INFER] ${p.sms} SMs, the instance's multiProcessorCount on the GH100 layout (whole GPCs)`,
    l2Size: `${share}; ${base.sources.l2Size}`,
    l2Slices: `${share}`,
    l2SlicesActive: `${share}`,
    smL2Partition: `[INFER] the full GPU's partition of the instance's SMs: the first ${p.sms} it dispatches to`,
    smDispatchOrder: '[INFER] the full GPU\'s dispatch order of the instance\'s SMs, renumbered from 0',
    dramBandwidth: `${share} (its memory slices' bandwidth)`,
    globalMemBytes: `${share} [INFER] of the full GPU's totalGlobalMem (nvidia-smi's profile names round it: ${p.name})`,
    persistingL2CacheMaxSize: `${share} [INFER] of the full GPU's`,
    persistingL2CacheDefaultLimit: `${share} [INFER] of the full GPU's`,
    ncuReplayDirtyBytes: `${share} [INFER] of the full GPU's`,
  };
  return { arch, sources };
}
