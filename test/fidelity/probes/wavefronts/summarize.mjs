// Prints, for each probe run under h200/pN/, one line per launch: the program's V line (the launch's
// parameters, see each probe's main) and ncu's shared instructions, the wavefronts above them
// (excess = wavefronts - instructions: every access is 32-bit and conflict-free, so the ideal is one
// wavefront per instruction), the H200's "bank conflicts", global requests/sectors, CTAs and duration.
// Usage: node test/fidelity/probes/wavefronts/summarize.mjs
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = join(import.meta.dirname, 'h200');

/** ncu's raw CSV page: quoted fields, numbers with thousands separators */
function parseCsv(text) {
  return text
    .trim()
    .split('\n')
    .map((line) => [...line.matchAll(/"([^"]*)"/g)].map((m) => m[1]));
}

const num = (s) => Number(String(s).replaceAll(',', ''));
const M = {
  ldI: 'smsp__sass_inst_executed_op_shared_ld.sum',
  stI: 'smsp__sass_inst_executed_op_shared_st.sum',
  ldW: 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum',
  stW: 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum',
  ldC: 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum',
  stC: 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum',
  gldR: 'l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum',
  gldS: 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum',
  gstR: 'l1tex__t_requests_pipe_lsu_mem_global_op_st.sum',
  gstS: 'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum',
  ctas: 'sm__ctas_launched.sum',
  ns: 'gpu__time_duration.sum',
};

for (const run of readdirSync(dir).sort()) {
  const [hdr, , ...rows] = parseCsv(readFileSync(join(dir, run, 'wv.csv'), 'utf8'));
  const v = readFileSync(join(dir, run, 'wv.txt'), 'utf8').trim().split('\n');
  console.log(`${run}: V line | LDS STS instructions | excess ld st | conflicts ld st | LDG req sect | STG req sect | CTAs | ns`);
  rows.forEach((r, i) => {
    const g = (k) => (hdr.indexOf(M[k]) < 0 ? NaN : num(r[hdr.indexOf(M[k])]));
    console.log(
      `  ${v[i].replace(/ no error$/, '')} | ${g('ldI')} ${g('stI')} | ${g('ldW') - g('ldI')} ${g('stW') - g('stI')} | ${g('ldC')} ${g('stC')} | ` +
        `${g('gldR')} ${g('gldS')} | ${g('gstR')} ${g('gstS')} | ${g('ctas')} | ${g('ns')}`,
    );
  });
}
