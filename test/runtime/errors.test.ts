/**
 * Misuse of the runtime through the real CLI: each program of test/fixtures/runtime_errors.ts makes
 * one mistake CUDA reports (a graph cycle, a graph allocation used where it is not valid, a
 * synchronising call during stream capture, an unknown launch attribute, a destroyed stream or event
 * used again) and must end with one `error:` line naming the program line, and a non-zero exit.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CLI_ENTRY } from '../setup/cli.js';

const FIXTURE = 'test/fixtures/runtime_errors.ts';
const lines = readFileSync(FIXTURE, 'utf8').split('\n');
/** the 1-based line of the first fixture line containing `text` after the program named `program` */
function lineOf(program: string, text: string): number {
  const start = lines.findIndex((l) => l.includes(`name: '${program}'`));
  return start + 1 + lines.slice(start).findIndex((l) => l.includes(text));
}

const CASES = [
  { program: 'graph_cycle', at: 'ctx.graphInstantiate(g)', says: /the graph has a cycle: 0 \(EMPTY\) -> 1 \(EMPTY\) -> 0 \(EMPTY\)/ },
  { program: 'alloc_not_downstream', at: 'ctx.graphInstantiate(g)', says: /node 1 \(touch, made at .*:\d+\) uses the allocation of node 0 \(MEM_ALLOC.*\) but is not downstream of it/ },
  { program: 'sync_in_capture', at: 'ctx.streamSynchronize(s)', says: /cudaStreamSynchronize while stream 'Stream 13' is capturing .* \(cudaErrorStreamCaptureUnsupported\)/ },
  { program: 'unknown_attribute', at: 'clusterDim', says: /unknown launch attribute 'clusterDim'; the attributes are accessPolicyWindow, memSyncDomain/ },
  { program: 'destroyed_stream', at: '{ stream: s }', says: /cudaLaunchKernel on stream 'Stream 13', which was destroyed \(cudaErrorInvalidResourceHandle\)/ },
  { program: 'destroyed_event', at: 'ctx.eventRecord(e)', says: /cudaEventRecord on an event that was destroyed .*\(cudaErrorInvalidResourceHandle\)/ },
];

describe('runtime misuse: one located error line, non-zero exit', () => {
  it.each(CASES)('$program', ({ program, at, says }) => {
    const r = spawnSync(process.execPath, [...CLI_ENTRY, 'profile', FIXTURE, '-k', program], { encoding: 'utf8', env: { ...process.env, CI: 'true' } });
    // the program's host code failed while running (src/errors.ts: a kernel fault, 3)
    expect(r.status).toBe(3);
    const err = r.stderr.trim().split('\n');
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(new RegExp(`^error: ${FIXTURE.replace(/[./]/g, '\\$&')}:${lineOf(program, at)}: `));
    expect(err[0]).toMatch(says);
    expect(r.stdout).toBe('');
  });
});
