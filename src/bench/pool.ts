/**
 * Profiles on every core: `jobs` child processes (profileWorker.ts), each loading the profiler once
 * and profiling one request at a time. Independent profiles (the entries of a bench suite) run side
 * by side; the caller puts the results in its own order, so the output is the same as one process
 * profiling them in turn. Child processes, not threads: a kernel file's import runs under the
 * watchdog only on a main thread (src/kernel/load.ts), and the loader hooks are per process.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Report } from '../../types/report.schema.js';
import { HostFault, KernelFault, UserError } from '../errors.js';
import { MEMORY_SHARE_ENV } from '../exec/memoryBudget.js';
import type { ProfileRequest } from '../profile.js';
import type { PoolError, PoolReply, PoolRequest } from './profileWorker.js';

export interface ProfilePool {
  /** the request's report, as profileFile in this process would make it (the request holds data only: no progress) */
  profile(req: ProfileRequest): Promise<Report>;
  /** ends the children (after their requests) */
  close(): void;
}

/** the error the child sent, as the class it was: the CLI prints and exits as for an error of its own */
function revive(e: PoolError): Error {
  if (e.cls === 'KernelFault') return new KernelFault(e.kind ?? 'invalid-launch', e.message);
  if (e.cls === 'HostFault') return new HostFault(e.message);
  if (e.cls === 'UserError') return new UserError(e.message, e.exitCode);
  const err = new Error(e.message);
  if (e.stack) err.stack = e.stack;
  return err;
}

const fromSource = import.meta.url.endsWith('.ts');
const WORKER = fileURLToPath(new URL(fromSource ? './profileWorker.ts' : './profileWorker.js', import.meta.url));

interface Pending {
  msg: PoolRequest;
  resolve: (r: Report) => void;
  reject: (e: Error) => void;
}

export function createProfilePool(jobs: number): ProfilePool {
  const idle: ChildProcess[] = [];
  const busy = new Map<ChildProcess, Pending>();
  const queue: Pending[] = [];
  let children = 0;
  let nextId = 0;
  // the sources need tsx in the child as in this process (under vitest, which transforms by itself,
  // it is not in execArgv); VITEST would make the child skip the kernel loader (src/kernel/resolve.ts)
  const execArgv = fromSource && !process.execArgv.some((a) => a.includes('tsx')) ? [...process.execArgv, '--import', 'tsx'] : process.execArgv;
  // the children share the emulator's memory budget (exec/memoryBudget.ts): together they stay within it
  const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => k !== 'VITEST')), ...(jobs > 1 ? { [MEMORY_SHARE_ENV]: String(jobs) } : {}) };

  function spawnChild(): ChildProcess {
    const child = fork(WORKER, [], { execArgv, env, serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children++;
    child.on('message', (reply: PoolReply) => {
      const p = busy.get(child);
      if (!p || p.msg.id !== reply.id) return;
      busy.delete(child);
      if ('error' in reply) p.reject(revive(reply.error));
      else p.resolve(reply.report);
      idle.push(child);
      pump();
    });
    child.on('exit', (code, signal) => {
      children--;
      const i = idle.indexOf(child);
      if (i >= 0) idle.splice(i, 1);
      const p = busy.get(child);
      if (p) {
        busy.delete(child);
        p.reject(new Error(`a profile worker ended (${signal ?? `exit ${code}`}) while profiling ${p.msg.req.file}`));
        pump();
      }
    });
    return child;
  }

  function pump(): void {
    while (queue.length > 0) {
      const child = idle.pop() ?? (children < jobs ? spawnChild() : undefined);
      if (!child) return;
      const p = queue.shift()!;
      busy.set(child, p);
      child.send(p.msg);
    }
  }

  return {
    profile(req) {
      return new Promise<Report>((resolve, reject) => {
        queue.push({ msg: { id: nextId++, req }, resolve, reject });
        pump();
      });
    },
    close() {
      for (const c of [...idle, ...busy.keys()]) c.disconnect();
    },
  };
}
