/**
 * The profile pool (src/bench/pool.ts): reports made in child processes, two at a time, are the
 * reports this process makes, byte for byte, and in the caller's order; a child's error comes back
 * as the class and message it had there.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProfilePool } from '../../src/bench/pool.js';
import { runSuite } from '../../src/bench/run.js';
import { parseSuite } from '../../src/bench/suite.js';
import { KernelFault, UserError } from '../../src/errors.js';
import { profileFile } from '../../src/profile.js';
import { reportJson } from '../../src/report/schema.js';
import { kernelFile, scratch, tinyKernel } from '../hostile/harness.js';

describe('profile pool', () => {
  it("a suite profiled two at a time in child processes gives one process's report, byte for byte", async () => {
    const dir = scratch('pool');
    const names = ['p', 'q', 'r'];
    // different work per kernel (1, 2, 3 stores per thread), so a mix-up would show in the counts
    const files = names.map((n, i) =>
      kernelFile(dir, tinyKernel({ name: `'${n}'`, body: `(k, { out }) => { for (let j = 0; j < ${i + 1}; j++) out.at(k.threadIdx.x).store(j); }` }), n),
    );
    const suite = parseSuite({ kernels: files.map((file, i) => ({ file, kernel: names[i] })), thresholds: {} }, 'suite.json');
    const serial = await runSuite(suite, profileFile);
    const pool = createProfilePool(2);
    try {
      const parallel = await runSuite(suite, (req) => pool.profile(req), undefined, 2);
      expect(parallel.report.kernels.map((k) => k.name)).toEqual(names);
      expect(reportJson(parallel.report)).toBe(reportJson(serial.report));
      expect(parallel.report.kernels.map((k) => k.metrics['smsp__sass_inst_executed_op_global_st.sum'])).toEqual([1, 2, 3]);
    } finally {
      pool.close();
    }
  });

  it("a child's user error and kernel fault arrive as those classes, with their messages", async () => {
    const dir = scratch('pool-err');
    const oob = kernelFile(dir, tinyKernel({ body: '(k, { out }) => { out.at(k.threadIdx.x.add(1000)).store(1); }' }), 'oob');
    const pool = createProfilePool(1);
    try {
      const missing = join(dir, 'nope.ts');
      await expect(pool.profile({ file: missing })).rejects.toSatisfy((e: unknown) => e instanceof UserError && (e as Error).message === `kernel file not found: ${missing}; give the path of a .ts kernel file (see \`warpsight kernels\`)`);
      const local = await profileFile({ file: oob }).catch((e: unknown) => e);
      expect(local).toBeInstanceOf(KernelFault);
      const remote = await pool.profile({ file: oob }).catch((e: unknown) => e);
      expect(remote).toBeInstanceOf(KernelFault);
      expect((remote as KernelFault).kind).toBe((local as KernelFault).kind);
      expect((remote as Error).message).toBe((local as Error).message);
      expect((remote as KernelFault).exitCode).toBe((local as KernelFault).exitCode);
    } finally {
      pool.close();
    }
  });
});
