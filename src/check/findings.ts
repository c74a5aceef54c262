/**
 * What the checker reports: findings in compute-sanitizer's four tools' words (racecheck, synccheck,
 * initcheck, memcheck), each with both source lines, the threads, the address and its allocation, and
 * the fix. Collected per launch, deduplicated by kind and source-line pair (the first occurrence is
 * the one described; `count` says how many occurrences there were).
 */
import type { MemScope } from '../ir/types.js';

export type FindingKind =
  /** conflicting accesses of different warps, at least one a write, not ordered by happens-before */
  | 'data-race'
  /** conflicting strong (atomic/volatile) accesses whose scopes do not include each other's threads */
  | 'scope-race'
  /** a weak load polled in a loop reads memory another thread writes */
  | 'plain-flag-poll'
  /** a read of device memory no host copy, memset or kernel ever wrote */
  | 'uninitialized-read'
  /** the interpreter stopped the launch at an out-of-bounds or misaligned access */
  | 'out-of-bounds'
  | 'misaligned';

/** compute-sanitizer's tool for each kind */
export const TOOL: Record<FindingKind, 'racecheck' | 'synccheck' | 'initcheck' | 'memcheck'> = {
  'data-race': 'racecheck',
  'scope-race': 'racecheck',
  'plain-flag-poll': 'synccheck',
  'uninitialized-read': 'initcheck',
  'out-of-bounds': 'memcheck',
  misaligned: 'memcheck',
};

/** one side of a finding: an access by one thread */
export interface AccessSite {
  /** the kernel file and line of the instruction */
  file: string;
  line: number;
  /** SASS-like name of the access (LDS, STG.E, ATOMG.ADD, ...) */
  opcode: string;
  access: 'read' | 'write' | 'atomic';
  /** atomic or volatile: the scope the access has in the memory model */
  scope?: MemScope;
  thread: [number, number, number];
  block: [number, number, number];
}

export interface Finding {
  kind: FindingKind;
  tool: 'racecheck' | 'synccheck' | 'initcheck' | 'memcheck';
  /** the kernel launch it happened in (0-based, in launch order) and the kernel's name */
  launch: number;
  kernel: string;
  space: 'global' | 'shared';
  /** for races: read-after-write, write-after-read, write-after-write (the second access's view) */
  hazard?: 'RAW' | 'WAR' | 'WAW';
  /** the earlier access (absent for single-access findings) */
  first?: AccessSite;
  /** the access that found the problem */
  second: AccessSite;
  /** hex global address, or the byte offset in the block's shared memory */
  address: string;
  /** the allocation (a global buffer, or a shared array) and the offset in it */
  allocation: { name: string; offset: number } | null;
  /** how many accesses hit this finding (the same kind and source lines) */
  count: number;
  message: string;
  fix: string;
}

export const MAX_FINDINGS = 1000;
