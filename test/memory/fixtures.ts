import { h200 } from '../../src/arch/data/h200.js';
import type { Arch } from '../../src/arch/types.js';

/** the H200 the memory tests model (src/arch/data/h200.ts, with the source of every number) */
export const H200: Arch = h200;
