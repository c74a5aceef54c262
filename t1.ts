import { profileFile } from '/work/main/src/profile.js';
const ks = process.argv.slice(2);
const t0 = performance.now();
const r = await profileFile({ file: 'kernels/global_loads.ts', kernel: ks });
for (const k of r.kernels) {
  const m = k.metrics;
  console.log(k.name, (Number(m['gpu__time_duration.sum'])/1000).toFixed(1), 'us occ', Number(m['sm__warps_active.avg.pct_of_peak_sustained_active']).toFixed(1), 'active', Number(m['sm__cycles_active.avg']).toFixed(0), 'dram', m['dram__bytes_read.sum'], m['dram__bytes_write.sum']);
}
console.log('ms', performance.now()-t0);
