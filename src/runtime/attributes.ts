/**
 * Launch attributes as data (cudaLaunchAttributeID): carried by launches, streams and graph nodes,
 * validated where they enter. An unknown attribute is an error, as an unknown id is to
 * cudaLaunchKernelExC.
 */
import type { AccessPolicyWindowSpec } from '../kernel/define.js';
import { HostFault } from '../errors.js';

export type MemSyncDomain = 'default' | 'remote';

export interface LaunchAttributes {
  /** cudaLaunchAttributeAccessPolicyWindow */
  accessPolicyWindow?: AccessPolicyWindowSpec;
  /** cudaLaunchAttributeMemSyncDomain: the logical domain of the launch */
  memSyncDomain?: MemSyncDomain;
  /** cudaLaunchAttributeMemSyncDomainMap: logical → physical domain ids */
  memSyncDomainMap?: { default: number; remote: number };
  /** cudaLaunchAttributeCooperative: the grid must be co-resident (cudaLaunchCooperativeKernel) */
  cooperative?: boolean;
  /** cudaLaunchAttributePriority */
  priority?: number;
}

const KNOWN = ['accessPolicyWindow', 'memSyncDomain', 'memSyncDomainMap', 'cooperative', 'priority'] as const;

/** check attributes from a program: `where` names the call (file:line and API) */
export function checkAttributes(raw: unknown, where: string, domainCount: number): LaunchAttributes {
  if (raw === undefined) return {};
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw new HostFault(`${where}: launch attributes must be an object such as { memSyncDomain: 'remote' }`);
  const a = raw as Record<string, unknown>;
  for (const k of Object.keys(a))
    if (!(KNOWN as readonly string[]).includes(k)) throw new HostFault(`${where}: unknown launch attribute '${k}'; the attributes are ${KNOWN.join(', ')}`);
  const out: LaunchAttributes = {};
  if (a.memSyncDomain !== undefined) {
    if (a.memSyncDomain !== 'default' && a.memSyncDomain !== 'remote') throw new HostFault(`${where}: memSyncDomain must be 'default' or 'remote' (cudaLaunchMemSyncDomainDefault / Remote), not ${JSON.stringify(a.memSyncDomain)}`);
    out.memSyncDomain = a.memSyncDomain;
  }
  if (a.memSyncDomainMap !== undefined) {
    const m = a.memSyncDomainMap as Record<string, unknown> | null;
    const ok = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v < domainCount;
    if (!m || typeof m !== 'object' || !ok(m.default) || !ok(m.remote) || Object.keys(m).some((k) => k !== 'default' && k !== 'remote'))
      throw new HostFault(`${where}: memSyncDomainMap must be { default: n, remote: n } with physical domains 0..${domainCount - 1} (cudaDevAttrMemSyncDomainCount is ${domainCount})`);
    out.memSyncDomainMap = { default: m.default, remote: m.remote };
  }
  if (a.cooperative !== undefined) {
    if (typeof a.cooperative !== 'boolean') throw new HostFault(`${where}: cooperative must be true or false`);
    out.cooperative = a.cooperative;
  }
  if (a.priority !== undefined) {
    if (typeof a.priority !== 'number' || !Number.isInteger(a.priority)) throw new HostFault(`${where}: priority must be an integer`);
    out.priority = a.priority;
  }
  if (a.accessPolicyWindow !== undefined) {
    const w = a.accessPolicyWindow as Partial<AccessPolicyWindowSpec> | null;
    if (!w || typeof w !== 'object' || w.base?.kind !== 'devptr' || typeof w.bytes !== 'number' || !(w.bytes > 0))
      throw new HostFault(`${where}: accessPolicyWindow needs { base: <device pointer>, bytes: > 0, hitRatio, hitProp, missProp }`);
    if (typeof w.hitRatio !== 'number' || !(w.hitRatio >= 0 && w.hitRatio <= 1)) throw new HostFault(`${where}: accessPolicyWindow.hitRatio must be within [0, 1], not ${String(w.hitRatio)}`);
    out.accessPolicyWindow = w as AccessPolicyWindowSpec;
  }
  return out;
}

/** the physical domain a launch's writes and fences are tagged with */
export function physicalDomain(a: LaunchAttributes): number {
  const map = a.memSyncDomainMap ?? { default: 0, remote: 1 };
  return a.memSyncDomain === 'remote' ? map.remote : map.default;
}
