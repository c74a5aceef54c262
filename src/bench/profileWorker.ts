/**
 * A child process of the profile pool (pool.ts): profiles the requests its parent sends, one at a
 * time, and sends each report back (structured clone: the report arrives as profileFile made it).
 * Errors go back as their class, message and exit code, for the parent to throw again.
 */
import { HostFault, KernelFault, UserError } from '../errors.js';
import { type ProfileRequest, profileFile } from '../profile.js';

export interface PoolRequest {
  id: number;
  req: ProfileRequest;
}

export interface PoolError {
  cls: 'KernelFault' | 'HostFault' | 'UserError' | 'Error';
  message: string;
  exitCode?: number;
  kind?: KernelFault['kind'];
  stack?: string;
}

export type PoolReply = { id: number; report: Awaited<ReturnType<typeof profileFile>> } | { id: number; error: PoolError };

function describe(e: unknown): PoolError {
  if (e instanceof KernelFault) return { cls: 'KernelFault', message: e.message, kind: e.kind };
  if (e instanceof HostFault) return { cls: 'HostFault', message: e.message };
  if (e instanceof UserError) return { cls: 'UserError', message: e.message, exitCode: e.exitCode };
  return { cls: 'Error', message: e instanceof Error ? e.message : String(e), ...(e instanceof Error && e.stack ? { stack: e.stack } : {}) };
}

process.on('message', (m: PoolRequest) => {
  profileFile(m.req).then(
    (report) => process.send?.({ id: m.id, report } satisfies PoolReply),
    (e: unknown) => process.send?.({ id: m.id, error: describe(e) } satisfies PoolReply),
  );
});
