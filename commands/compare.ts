import { Args, Flags } from '@oclif/core';
import { WarpsightCommand } from '../src/cli/base.js';
import type { Comparison } from '../src/report/compare.js';

export default class Compare extends WarpsightCommand {
  static override summary = 'Compare two reports metric by metric; exit 1 when a threshold is crossed';
  static override description = `Matches kernels by name and launch order (two single-kernel reports are compared whatever their names) and prints every numeric metric side by side: base, new, delta and % change, then the rules that appeared or vanished. --threshold metric=pct (repeatable; an exact metric id, or a pattern with *) fails the comparison when |new − base| / |base| exceeds pct percent: the exit status is 1, for CI.`;
  static override examples = [
    '<%= config.bin %> compare reports/baseline.json out/bench-report.json',
    '<%= config.bin %> compare padded.json unpadded.json --threshold l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum=1',
    "<%= config.bin %> compare a.json b.json --threshold 'l1tex__t_sectors*=0' --changed",
    '<%= config.bin %> compare a.json b.json --json',
  ];
  static override enableJsonFlag = true;
  static override args = {
    base: Args.string({ required: true, description: 'the baseline report JSON' }),
    new: Args.string({ required: true, description: 'the report JSON to check against it' }),
  };
  static override flags = {
    threshold: Flags.string({ multiple: true, description: 'metric=pct: fail when the metric changes by more than pct percent (repeatable)' }),
    changed: Flags.boolean({ description: 'show only metrics that changed' }),
  };

  async run(): Promise<Comparison> {
    const { args, flags } = await this.parse(Compare);
    const { readReport } = await import('../src/report/schema.js');
    const { checkThresholds, compareReports, parseThreshold, renderComparison } = await import('../src/report/compare.js');
    const thresholds = (flags.threshold ?? []).map(parseThreshold);
    const [base, next] = [readReport(args.base), readReport(args.new)];
    checkThresholds(thresholds, flags.threshold ?? [], [base, next]);
    const comparison = compareReports(base, next, { thresholds });
    if (!this.jsonEnabled()) process.stdout.write(renderComparison(comparison, { tty: process.stdout.isTTY === true, changedOnly: flags.changed }));
    // oclif prints the --json result after run() returns; exit afterwards so CI sees the failure
    if (comparison.regressions > 0) process.exitCode = 1;
    return comparison;
  }
}
