/**
 * A multi-PE program's deadlock in words: what each PE waits for (host, streams, kernels), the
 * wait-for cycle when the seed's patterns make one, and the seed's fix (seed 001, "NVSHMEM and
 * CUDA: deadlocks"). Pure: the system hands it the state in which no PE can go on.
 */
import type { StreamHandle } from '../runtime/types.js';

/** an on-stream NVSHMEM operation as its PE enqueued it */
export interface OnStreamRecord {
  pe: number;
  name: string;
  where: string;
  stream: StreamHandle | undefined;
  signals?: { pe: number; address: number };
  waitsOn?: { pe: number; address: number };
  barrier?: number;
}

export interface DeadlockState {
  nPes: number;
  pes: {
    pe: number;
    finished: boolean;
    hostWait: { name: string; where: string } | null;
    /** blocked device work: parked kernels, kernels without SMs, queued ops and what holds them */
    device: { text: string; stream: number; where: string }[];
    onStream: OnStreamRecord[];
  }[];
}

export function explainDeadlock(st: DeadlockState): string {
  const lines: string[] = [];
  for (const p of st.pes) {
    const parts: string[] = [];
    if (p.hostWait) parts.push(`the host waits in ${p.hostWait.name} (${p.hostWait.where})`);
    else if (p.finished) parts.push('the program has ended');
    for (const d of p.device) parts.push(`stream ${d.stream}: ${d.text} (${d.where})`);
    lines.push(`PE ${p.pe}: ${parts.join('; ') || 'nothing blocked'}`);
  }
  const cycle = signalBarrierCycle(st);
  const text = st.pes.flatMap((p) => p.device.map((d) => d.text)).join(' ');
  const fix = cycle
    ? `${cycle}; fix: on-stream operations must not form a circular dependence between PEs: enqueue the putmem_signal_on_stream before the barrier on its PE, or the signal wait after the barrier on the other (seed 001, "CUDA Streams and Circular Dependencies")`
    : /cannot start: no SM has room/.test(text)
      ? 'the waiting kernel holds the SMs the notifying kernel needs; fix: enqueue the notifying kernel before the waiting one in one stream, or make the waiting kernel\'s stream wait on an event recorded after the notifying kernel (seed 001, "CUDA Stream Order and Execution Resources")'
      : /hardware queue/.test(text)
        ? 'the runtime put both streams\' work into one hardware work queue, where it runs in FIFO order behind the waiting kernel; fix: give the notifying kernel a CUDA-visible dependence before the waiting one (same stream, or an event) (seed 001, "CUDA Streams and False Circular Dependencies")'
        : /never started/.test(text)
          ? 'blocks that never started are the ones the resident blocks wait for; fix: launch the kernel collectively (nvshmemx_collective_launch) or cooperatively so all its blocks are resident, or launch fewer blocks (seed 001, "Intra-Kernel Synchronization")'
          : 'fix: order the writer of what each waiter polls before it (same stream, or an event), or make every PE make the matching call';
  return `deadlock: no PE can go on (${st.nPes} PEs). ${lines.join('. ')}. ${fix}`;
}

/** seed 001's first case: a signal wait whose setter is queued behind a barrier the waiting PE never reaches */
function signalBarrierCycle(st: DeadlockState): string | null {
  for (const waiter of st.pes) {
    const wait = waiter.onStream.find((r) => r.waitsOn && waiter.device.some((d) => d.where === r.where && d.text.startsWith(r.name)));
    if (!wait?.waitsOn) continue;
    for (const setterPe of st.pes) {
      const setter = setterPe.onStream.find((r) => r.signals && r.signals.pe === waiter.pe && setterPe.device.some((d) => d.where === r.where && /queued behind|waits behind/.test(d.text)));
      if (!setter) continue;
      const held = setterPe.device.find((d) => d.where === setter.where) as { text: string };
      const barrier = setterPe.onStream.find((r) => r.barrier !== undefined && held.text.includes(r.where));
      if (!barrier) continue;
      const theirs = waiter.onStream.find((r) => r.barrier === barrier.barrier);
      return (
        `cycle: PE ${waiter.pe}'s ${wait.name} (${wait.where}) waits for the signal PE ${setterPe.pe}'s ${setter.name} (${setter.where}) sets; ` +
        `that is queued behind PE ${setterPe.pe}'s ${barrier.name} (${barrier.where}), which waits for PE ${waiter.pe} to reach ` +
        (theirs ? `its ${theirs.name} (${theirs.where}), queued behind the signal wait` : 'the same barrier')
      );
    }
  }
  return null;
}
