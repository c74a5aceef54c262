import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { Args, Flags } from '@oclif/core';
import { WarpsightCommand } from '../src/cli/base.js';
import { checkWritable, writeOutput } from '../src/cli/output.js';
import { UserError } from '../src/errors.js';
import type { Comparison } from '../src/report/compare.js';

export default class Compare extends WarpsightCommand {
  static override summary = 'Compare two reports metric by metric; exit 1 when a threshold is crossed';
  static override description = `Matches kernels by name and launch order (two single-kernel reports are compared whatever their names) and prints every numeric metric side by side: base, new, delta and % change, then the rules that appeared or vanished. --threshold metric=pct (repeatable; an exact metric id, or a pattern with *) fails the comparison when the metric changes by more than pct percent of |base| in its worse direction: up for a lower-is-better metric (bank conflicts, sectors, instructions, duration), down for a higher-is-better one (hit rates, occupancy), either way for one without a direction (see the registry); =+pct fails only on a rise, =-pct only on a fall, =±pct on either. Changes of non-integer values below the noise floor (or that print the same) count as none. A crossed threshold exits 1, for CI.`;
  static override examples = [
    '<%= config.bin %> compare reports/baseline.json out/bench-report.json',
    '<%= config.bin %> compare padded.json unpadded.json --threshold l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum=1',
    "<%= config.bin %> compare a.json b.json --threshold 'gpu__time_duration.sum=+5%' --threshold 'lts__t_sector_hit_rate.pct=-2%'",
    "<%= config.bin %> compare a.json b.json --threshold 'l1tex__t_sectors*=0' --changed",
    '<%= config.bin %> compare a.json b.json --json',
    '<%= config.bin %> compare padded.json unpadded.json --html diff.html',
  ];
  static override enableJsonFlag = true;
  static override args = {
    base: Args.string({ required: true, description: 'the baseline report JSON' }),
    new: Args.string({ required: true, description: 'the report JSON to check against it' }),
  };
  static override flags = {
    threshold: Flags.string({ multiple: true, description: 'metric=pct: fail when the metric gets worse by more than pct percent; =+pct on a rise, =-pct on a fall, =±pct either (repeatable)' }),
    'noise-floor': Flags.string({ default: '0.0001', description: 'changes of non-integer values below this % of the value are noise, not a change' }),
    changed: Flags.boolean({ description: 'show only metrics that changed' }),
    html: Flags.string({ description: 'also write the comparison as a self-contained HTML page, changes coloured better / worse' }),
    force: Flags.boolean({ char: 'f', description: 'overwrite the --html file if it exists' }),
  };

  async run(): Promise<Comparison> {
    const { args, flags } = await this.parse(Compare);
    const { readReport } = await import('../src/report/schema.js');
    const { checkThresholds, compareReports, parseThreshold, renderComparison } = await import('../src/report/compare.js');
    const thresholds = (flags.threshold ?? []).map(parseThreshold);
    const noiseFloorPct = Number(flags['noise-floor'].replace(/%$/, ''));
    if (!Number.isFinite(noiseFloorPct) || noiseFloorPct < 0) throw new UserError(`--noise-floor ${flags['noise-floor']}: expected a percentage >= 0, e.g. --noise-floor 0.01`, 2);
    if (flags.html !== undefined && !flags.force && existsSync(flags.html)) throw new UserError(`--html ${flags.html}: the file exists; pass -f (--force) to overwrite it, or choose another name`, 2);
    if (flags.html !== undefined) checkWritable('--html', flags.html);
    const [base, next] = [readReport(args.base), readReport(args.new)];
    checkThresholds(thresholds, flags.threshold ?? [], [base, next]);
    const comparison = compareReports(base, next, { thresholds, noiseFloorPct });
    if (flags.html !== undefined) {
      const { renderCompareHtml } = await import('../src/report/html/compare.js');
      writeOutput('--html', flags.html, renderCompareHtml(comparison, { base: basename(args.base), new: basename(args.new) }));
      if (!this.jsonEnabled()) process.stderr.write(`HTML comparison: ${flags.html}\n`);
    }
    if (!this.jsonEnabled()) process.stdout.write(renderComparison(comparison, { tty: process.stdout.isTTY === true, changedOnly: flags.changed }));
    // oclif prints the --json result after run() returns; exit afterwards so CI sees the failure
    if (comparison.regressions > 0) process.exitCode = 1;
    return comparison;
  }
}
