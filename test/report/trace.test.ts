/**
 * `--trace`: bundled programs' timelines in the Chrome Trace Event Format validate against
 * schemas/trace-event.schema.json (the subset Perfetto reads), the slices of every track nest as
 * Perfetto requires, there is one kernel slice per kernel operation and one copy-engine slice per copy,
 * the names come out as the timeline has them; the CLI writes the same file; and a file that ran no
 * program gets a one-line error for --trace.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Report } from '../../types/report.schema.js';
import type { TraceFile } from '../../types/trace-event.schema.js';
import { profileFile } from '../../src/profile.js';
import { traceEvents, type TraceEvent } from '../../src/report/trace.js';
import { CLI_ENTRY } from '../setup/cli.js';

const ROOT = resolve(import.meta.dirname, '..', '..');
const OUT = join(ROOT, 'out', 'trace-test');
const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', 'trace-event.schema.json'), 'utf8')) as object;
// strict, but the if/then branches require properties the event declares once, at its top, and an
// id may be a string or an integer
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
const validate = ajv.compile(schema) as ValidateFunction<{ traceEvents: TraceEvent[] }>;

function cli(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [...CLI_ENTRY, ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, FORCE_COLOR: '0' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** [start, end] of an X event in integer nanoseconds, as Perfetto converts them (ts × 1000) */
const span = (e: TraceEvent): [number, number] => {
  const s = Math.round((e.ts ?? 0) * 1000);
  return [s, s + Math.round((e.dur ?? 0) * 1000)];
};

/** the first pair of slices of one track that overlap without nesting, or undefined */
function partialOverlap(events: readonly TraceEvent[]): string | undefined {
  const tracks = new Map<string, TraceEvent[]>();
  for (const e of events) {
    if (e.ph !== 'X') continue;
    const key = `${e.pid}/${e.tid ?? e.pid}`;
    tracks.set(key, [...(tracks.get(key) ?? []), e]);
  }
  for (const [key, slices] of tracks) {
    // outer before inner: by start, the longer first
    const sorted = [...slices].sort((a, b) => span(a)[0] - span(b)[0] || span(b)[1] - span(a)[1]);
    const open: TraceEvent[] = [];
    for (const e of sorted) {
      const [s, end] = span(e);
      while (open.length > 0 && span(open[open.length - 1] as TraceEvent)[1] <= s) open.pop();
      const parent = open[open.length - 1];
      if (parent && end > span(parent)[1]) return `${key}: '${parent.name}' [${span(parent).join(', ')}] and '${e.name}' [${s}, ${end}]`;
      open.push(e);
    }
  }
  return undefined;
}

const programs: Record<string, { file: string; kernel: string }> = {
  false_dependency: { file: 'kernels/streams.ts', kernel: 'false_dependency' },
  malloc_sync: { file: 'kernels/streams.ts', kernel: 'malloc_sync' },
  jacobi_graph: { file: 'kernels/jacobi_graph.ts', kernel: 'jacobi_graph' },
};

describe('--trace in the Chrome Trace Event Format', () => {
  const reports = new Map<string, Report>();
  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    for (const [name, req] of Object.entries(programs)) reports.set(name, await profileFile(req));
  });
  const reportOf = (name: string): Report => {
    const r = reports.get(name);
    if (!r) throw new Error(`${name} not profiled`);
    return r;
  };

  for (const name of Object.keys(programs))
    describe(name, () => {
      it('validates against schemas/trace-event.schema.json', () => {
        // and, at compile time, the writer's type is the schema's (types/ is generated from it)
        const trace: TraceFile = traceEvents(reportOf(name));
        const ok = validate(trace);
        expect(ok, ajv.errorsText(validate.errors, { separator: '\n' })).toBe(true);
        expect(trace.traceEvents.length).toBeGreaterThan(0);
      });

      it('slices of one track nest (no partial overlap), in integer nanoseconds as Perfetto reads them', () => {
        expect(partialOverlap(traceEvents(reportOf(name)).traceEvents)).toBeUndefined();
      });

      it('a kernel slice per kernel operation, a copy-engine slice per copy, an API slice per call, every track named', () => {
        const report = reportOf(name);
        const t = report.programs?.[0]?.timeline;
        if (!t) throw new Error('no timeline');
        const { traceEvents: events } = traceEvents(report);
        const slices = events.filter((e) => e.ph === 'X');
        const engineTids = new Set([100, 101, 102]);
        const kernels = t.ops.filter((o) => o.kind === 'kernel');
        expect(slices.filter((e) => e.cat === 'kernel')).toHaveLength(kernels.length);
        expect(slices.filter((e) => e.cat === 'kernel').map((e) => e.name)).toEqual([...kernels].sort((a, b) => a.startNs - b.startNs || a.id - b.id).map((o) => o.name));
        const engineOps = t.ops.filter((o) => o.engine !== undefined);
        expect(slices.filter((e) => e.tid !== undefined && engineTids.has(e.tid))).toHaveLength(engineOps.length);
        expect(slices.filter((e) => e.cat === 'cuda_api')).toHaveLength(t.api.length);
        // each slice's duration is its operation's, to the nanosecond
        const byId = new Map(t.ops.map((o) => [o.id, o]));
        for (const e of slices.filter((x) => x.cat === 'kernel')) {
          const op = byId.get(Number(e.args?.id));
          expect(op).toBeDefined();
          if (op) expect(Math.abs((e.dur ?? 0) * 1000 - (op.endNs - op.startNs))).toBeLessThanOrEqual(1);
        }
        const named = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => `${e.pid}/${e.tid}`));
        for (const e of slices) expect(named, `${e.name} on ${e.pid}/${e.tid}`).toContain(`${e.pid}/${e.tid}`);
      });
    });

  it('the schema rejects what Perfetto would drop or misread (real events, one field broken each)', () => {
    const { traceEvents: events } = traceEvents(reportOf('false_dependency'));
    const first = (ph: TraceEvent['ph']): TraceEvent => {
      const e = events.find((x) => x.ph === ph);
      if (!e) throw new Error(`no ${ph} event`);
      return e;
    };
    const x = first('X');
    const { dur: _dur, ...noDur } = x;
    const broken: unknown[] = [
      noDur, // an X without dur
      { ...x, ts: String(x.ts) }, // ts not a number
      { ...x, tid: 1.5 }, // tid not an integer
      { ...x, ph: 'Q' }, // no such phase
      { ...first('C'), args: { sms: 'many' } }, // a counter series not numeric
      { ...first('M'), name: 'process_labels' }, // metadata Perfetto ignores
      { ...first('M'), args: {} }, // a process_name without its name
      { ...first('i'), s: 'x' }, // an instant of no scope
      { ...first('i'), ph: 'i', tid: undefined }, // a thread instant without its thread
    ];
    for (const e of broken) expect(validate({ traceEvents: [JSON.parse(JSON.stringify(e)) as unknown] }), JSON.stringify(e)).toBe(false);
    expect(validate([x])).toBe(false); // the array form is not what --trace writes
  });

  it('false_dependency: stream 8 is a track named with its hardware queue, the SMs a counter', () => {
    const { traceEvents: events } = traceEvents(reportOf('false_dependency'));
    const names = events.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => e.args?.name);
    expect(names).toContain('stream 8 (queue 0)');
    expect(names).toContain('stream 0 (queue 0)');
    expect(names).toContain('CUDA API');
    const counters = events.filter((e) => e.ph === 'C');
    expect(counters).toHaveLength(reportOf('false_dependency').programs?.[0]?.timeline.smBusy.length ?? -1);
  });

  it('jacobi_graph: graph launches on a track of their own, their nodes on the stream', () => {
    const report = reportOf('jacobi_graph');
    const t = report.programs?.[0]?.timeline;
    const { traceEvents: events } = traceEvents(report);
    const graphs = events.filter((e) => e.ph === 'X' && e.cat === 'graph');
    expect(graphs).toHaveLength(t?.ops.filter((o) => o.kind === 'graph').length ?? -1);
    expect(new Set(graphs.map((e) => e.tid)).size).toBe(1);
    expect(events.filter((e) => e.ph === 'X' && e.cat === 'kernel' && e.args?.graph_launch !== undefined)).toHaveLength(t?.ops.filter((o) => o.kind === 'kernel').length ?? -1);
  });

  it('the CLI writes the same trace (profile --trace), and the report it writes (-o) gives it too', () => {
    const trace = join(OUT, 'fd.trace.json');
    const json = join(OUT, 'fd.json');
    rmSync(trace, { force: true });
    rmSync(json, { force: true });
    const r = cli('profile', 'kernels/streams.ts', '-k', 'false_dependency', '-o', json, '--trace', trace);
    expect(r.code, r.stderr).toBe(0);
    const text = readFileSync(trace, 'utf8');
    expect(text).toBe(`${JSON.stringify(traceEvents(reportOf('false_dependency')))}\n`);
    expect(text).toBe(`${JSON.stringify(traceEvents(JSON.parse(readFileSync(json, 'utf8')) as Report))}\n`);
    expect(validate(JSON.parse(text))).toBe(true);
  });

  it('--trace on a file that ran no program: one error line, exit 2, no file', () => {
    const trace = join(OUT, 'none.trace.json');
    rmSync(trace, { force: true });
    const r = cli('profile', 'kernels/fma_chain.ts', '--trace', trace);
    expect(r.code).toBe(2);
    const lines = r.stderr.split('\n').filter((l) => l.trim() !== '' && !l.includes('ExperimentalWarning') && !l.startsWith('(Use `node'));
    expect(lines).toEqual([`error: --trace ${trace}: the profiled file ran no program, so there is no timeline to write; --trace needs a program (defineProgram)`]);
    expect(existsSync(trace)).toBe(false);
  });
});
