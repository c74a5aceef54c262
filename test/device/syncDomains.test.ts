/**
 * The device's record of writes in flight per memory synchronization domain (src/device/syncDomains.ts):
 * a launch sees the latest acknowledgement of the writes of its own domain issued up to its time, in
 * absolute time from each writer's start, nothing of another domain, and nothing once they are all
 * acknowledged; a long launch's log stays bounded.
 */
import { describe, expect, it } from 'vitest';
import { SlowWriteLog, SyncDomains } from '../../src/device/syncDomains.js';

/** a log of writes [issue, ack] (ns from the writer's start) */
const logOf = (writes: [number, number][]): SlowWriteLog => {
  const l = new SlowWriteLog();
  for (const [i, a] of writes) l.note(i, a);
  return l;
};

describe('sync domains: writes in flight', () => {
  it("a fence sees the latest acknowledgement of its domain's writes issued up to its time, placed by the writer's start", () => {
    const d = new SyncDomains(4);
    // writer in domain 0 starting at 1000 ns: writes issued at 0, 100, 500 ns acknowledged 480 ns later
    d.record(0, 1000, logOf([[0, 480], [100, 580], [500, 980]]));
    const v = d.launch(0, 1050);
    expect(v.inFlightNs).not.toBeNull();
    const f = v.inFlightNs as (t: number) => number;
    // before the writer started: nothing
    expect(f(999)).toBe(-Infinity);
    // in the first 32-ns bin: the write issued at 0 (ack 1480)
    expect(f(1010)).toBe(1480);
    // past the second write's bin: its ack (1580), the third not yet issued
    expect(f(1200)).toBe(1580);
    // after the third: 1980
    expect(f(1600)).toBe(1980);
  });

  it("another domain's writes are not waited for; the same writes mapped to one domain are", () => {
    const d = new SyncDomains(4);
    d.record(1, 0, logOf([[0, 10_000]]));
    expect(d.launch(0, 100).inFlightNs).toBeNull();
    const one = d.launch(1, 100).inFlightNs as (t: number) => number;
    expect(one(100)).toBe(10_000);
  });

  it('writes all acknowledged before a launch starts are forgotten', () => {
    const d = new SyncDomains(4);
    d.record(0, 0, logOf([[0, 500]]));
    expect(d.launch(0, 400).inFlightNs).not.toBeNull();
    expect(d.launch(0, 600).inFlightNs).toBeNull();
  });

  it('a launch with no slow writes records nothing', () => {
    const d = new SyncDomains(4);
    d.record(0, 0, new SlowWriteLog());
    expect(d.launch(0, 0).inFlightNs).toBeNull();
  });

  it('a long log is bounded: wider bins, the latest acknowledgement kept (conservative by under a bin)', () => {
    const l = new SlowWriteLog();
    // one write every 10 ns for 10 ms: a million writes
    for (let i = 0; i < 1_000_000; i++) l.note(i * 10, i * 10 + 480);
    const f = l.frozen();
    expect(f.upTo.length).toBeLessThanOrEqual(4096);
    expect(f.lastAckNs).toBe(9_999_990 + 480);
    // a query at 5 ms sees the writes of its bin: between 5 ms + 480 and 5 ms + a bin + 480
    const d = new SyncDomains(4);
    d.record(0, 0, l);
    const q = (d.launch(0, 0).inFlightNs as (t: number) => number)(5_000_000);
    expect(q).toBeGreaterThanOrEqual(5_000_480);
    expect(q).toBeLessThan(5_000_480 + f.binNs);
  });
});
