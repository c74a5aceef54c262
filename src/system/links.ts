/** the interconnect between the PEs of an arch (src/arch/interconnect.ts) */
import type { Arch } from '../arch/types.js';
import { H100_NVLINK4, H200_NVLINK4, type Interconnect, PCIE5_X16 } from '../arch/interconnect.js';

export type { NvshmemP2pFigures } from '../arch/interconnect.js';

/** H200s and H100s are joined by NVLink 4 (their HGX boards); anything else by PCIe */
export function interconnectFor(arch: Arch): Interconnect {
  if (arch.id.startsWith('h200')) return H200_NVLINK4;
  if (arch.id.startsWith('h100')) return H100_NVLINK4;
  return PCIE5_X16;
}
