/**
 * The runtime's part of `npm run bench`: 10,000 graph-replayed tiny kernels (test/bench/graphReplay.ts)
 * with every counter and the timing model on. Prints the program's time, its kernels per second and
 * the runtime's own events per second (the simulated clock's events: launches, graph nodes, blocks,
 * queue pumps). Targets (issue #37): under 20 s, at least 100,000 events/s.
 */
import { performance } from 'node:perf_hooks';
import { getArch } from '../../src/arch/index.js';
import { memoryPeak, resetMemoryPeak, sampleMemory } from '../../src/exec/memoryBudget.js';
import { loadDefinitions } from '../../src/kernel/load.js';
import { Session } from '../../src/profile/session.js';

const FILE = 'test/bench/graphReplay.ts';
const [def] = await loadDefinitions(FILE);
if (!def || def.kind !== 'program') throw new Error(`${FILE}: expected one program`);
const session = new Session({ arch: getArch('h200'), file: FILE, cacheControl: 'all', params: {} });
// time in the interpreter (every kernel) apart from the runtime's own work around it
let interpreter = 0;
const runKernel = session.runKernelWork.bind(session);
session.runKernelWork = (...a) => {
  const t = performance.now();
  try {
    return runKernel(...a);
  } finally {
    interpreter += performance.now() - t;
  }
};
resetMemoryPeak();
const t0 = performance.now();
const cpu0 = process.cpuUsage();
session.runProgram(def);
sampleMemory();
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
const run = session.programs[0];
const kernels = run?.timeline.ops.filter((o) => o.kind === 'kernel').length ?? 0;
const events = run?.simEvents ?? 0;
console.log(
  `runtime (${FILE}): ${kernels.toLocaleString('en-US')} graph-replayed kernels in ${seconds.toFixed(1)} s (${cpuSeconds.toFixed(1)} s of CPU; target 20 s), ${Math.round(kernels / seconds).toLocaleString('en-US')} kernels/s`,
);
const own = seconds - interpreter / 1000;
console.log(`runtime: ${(interpreter / 1000).toFixed(1)} s in the interpreter, ${own.toFixed(2)} s in the runtime and the rest of the session`);
console.log(`runtime_events_per_second: ${Math.round(events / own)} (${events.toLocaleString('en-US')} events; target 100,000)`);
console.log(`peak_memory_mb: ${Math.round(memoryPeak() / (1 << 20))}`);
