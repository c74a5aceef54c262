/**
 * The interconnect data (src/arch/interconnect.ts): every leaf has a source, every null says "not found",
 * and the H200 NVLink 4 figures are the ones the probe measured: each is recomputed here from the probe's
 * JSON summary (test/fidelity/probes/nvshmem/nvshmem_h200x2.json, made by summarize.py from the raw output),
 * so a number typed by hand that drifts from the measurement fails.
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { archFieldPaths } from '../../src/arch/sources.js';
import { H200_NVLINK4, INTERCONNECTS, REMOTE_TRANSPORTS } from '../../src/arch/interconnect.js';

interface Fig {
  median: number;
  fixedNs: number;
  bytesPerNs: number;
}
const PROBE = resolve(dirname(fileURLToPath(import.meta.url)), '../fidelity/probes/nvshmem/nvshmem_h200x2.json');
const figures = (JSON.parse(readFileSync(PROBE, 'utf8')) as { figures: Record<string, Fig> }).figures;
function fig(key: string): Fig {
  const f = figures[key];
  if (!f) throw new Error(`no figure '${key}' in ${PROBE}`);
  return f;
}

/** the value at a dotted path of an object */
function at(obj: object, path: string): unknown {
  return path.split('.').reduce<unknown>((o, k) => (o as Record<string, unknown>)[k], obj);
}

describe('interconnect data', () => {
  const all = [...INTERCONNECTS, ...REMOTE_TRANSPORTS];
  for (const { data, sources } of all)
    it(`${data.id}: one source per field; nulls say "not found"`, () => {
      const src = sources as Record<string, string>;
      const paths = archFieldPaths(data).filter((p) => !['id', 'name', 'initiator'].includes(p));
      for (const p of paths) {
        if (p === 'nvshmem') {
          // no NVSHMEM figures at all: every NVSHMEM field's source must say so
          const keys = Object.keys(src).filter((k) => k.startsWith('nvshmem.'));
          expect(keys.length, `${data.id}: sources for the missing NVSHMEM fields`).toBeGreaterThan(0);
          for (const k of keys) expect(src[k], `${data.id} ${k}`).toMatch(/not found/);
          continue;
        }
        expect(src[p], `source of ${data.id} ${p}`).toMatch(/\S/);
        if (at(data, p) === null) expect(src[p], `${data.id} ${p} is null`).toMatch(/not found/);
      }
      for (const k of Object.keys(src))
        if (!(k.startsWith('nvshmem.') && paths.includes('nvshmem'))) expect(paths, `${data.id}: a source for no field: ${k}`).toContain(k);
    });

  it('H200 NVLink 4 figures equal the probe measurements', () => {
    const n = H200_NVLINK4.nvshmem;
    if (!n) throw new Error('H200 NVLink 4 has NVSHMEM figures');
    const close = (got: number, want: number, what: string) => expect(Math.abs(got - want), `${what}: ${got} vs measured ${want}`).toBeLessThanOrEqual(Math.max(1, Math.abs(want) * 0.002));
    close(n.pOneWayNs, fig('pingpong_rtt/float_p').median / 2, 'p one way');
    close(n.signalOneWayNs, fig('pingpong_rtt/signal_op').median / 2, 'signal one way');
    close(n.waitUntilExtraNs, (fig('pingpong_rtt/int_p').median - fig('pingpong_rtt/float_p').median) / 2, 'wait_until extra');
    close(n.pQuietNs, fig('solo/int_p+quiet').median, 'p + quiet');
    close(n.quietNs, fig('solo/quiet_empty').median, 'quiet');
    close(n.gRemoteNs, fig('solo/int_g_chase_new_lines(remote)').median, 'g remote');
    close(n.sync.barrierAllOnStreamNs, fig('sync/barrier_all_on_stream(events)').median, 'barrier_all_on_stream');
    close(n.sync.barrierAllDeviceNs, fig('sync/device_barrier_all(1 thread)').median, 'device barrier');
    for (const [gran, name] of [['thread', 'putmem_thread'], ['warp', 'putmem_nbi_warp'], ['block', 'putmem_nbi_block']] as const) {
      const curve = n.put[gran];
      close(curve.fixedNs, fig(`putfit/${name}/ctas=1`).fixedNs, `${gran} fixed`);
      for (const { ctas, bytesPerNs } of curve.bytesPerNsByCtas) close(bytesPerNs, fig(`putfit/${name}/ctas=${ctas}`).bytesPerNs, `${gran} ${ctas} CTAs rate`);
    }
    close(n.put.onStream.bytesPerNs, fig('putfit/putmem_on_stream/ctas=0').bytesPerNs, 'on-stream rate');
    close(H200_NVLINK4.link.copyEngineBytesPerNs ?? 0, 536870912 / fig('p2p/ce/memcpyPeer_0to1/bytes=536870912').median, 'copy engine');
    close(H200_NVLINK4.link.smWriteBytesPerNs ?? 0, 1073741824 / fig('p2p/sm/peer_write_0to1/bytes=1073741824').median, 'SM peer write');
  });

  it('the fitted put curve reproduces a measured point it was not anchored to', () => {
    // 2 MiB by 32 CTAs of put_nbi_block: t = fixed + bytes / rate, within 20 % (issue #43's bar) of the median
    const n = H200_NVLINK4.nvshmem;
    if (!n) throw new Error('H200 NVLink 4 has NVSHMEM figures');
    const rate = n.put.block.bytesPerNsByCtas.find((r) => r.ctas === 32)?.bytesPerNs ?? 0;
    const predicted = n.put.block.fixedNs + 2097152 / rate;
    const measured = fig('putbw/putmem_nbi_block/ctas=32/bytes=2097152').median;
    expect(Math.abs(predicted - measured) / measured).toBeLessThan(0.2);
  });
});
