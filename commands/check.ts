import { existsSync } from 'node:fs';
import { Args, Flags } from '@oclif/core';
import type { CheckReport } from '../types/check.schema.js';
import { WarpsightCommand } from '../src/cli/base.js';
import { parseDim3, parseParams } from '../src/cli/flags.js';
import { checkWritable, writeOutput } from '../src/cli/output.js';
import { UserError } from '../src/errors.js';

export default class Check extends WarpsightCommand {
  static override summary = 'Find data races, scope races, polled plain flags, uninitialised reads and bad accesses (compute-sanitizer\'s racecheck, synccheck, initcheck, memcheck)';
  static override description = `Runs every kernel (or program) of the file in the interpreter with an access observer and reports, each with both source lines, the threads and blocks, the address and its allocation, and the fix:
- racecheck: conflicting accesses to shared or global memory (at least one a write, different warps) that no barrier (__syncthreads, named barriers with their counts) and no release/acquire pair or fence at a scope covering both threads orders; conflicting atomics whose scopes do not include each other's threads (a block-scope atomic used by two blocks) are a scope race;
- synccheck: a plain (non-atomic, non-volatile) flag polled in a loop while another thread writes it;
- initcheck: reads of device memory that no host copy, memset or kernel wrote (a program's ctx.malloc / mallocAsync; host.alloc without an initialiser is zero-filled), and of shared memory the block never wrote;
- memcheck: out-of-bounds and misaligned accesses (the launch stops there).
Unlike compute-sanitizer's racecheck (shared memory only) it checks global memory between blocks too. Threads of one warp count as one (intra-warp races are not reported). The shadow memory keeps per 4-byte word the last write and up to two unordered reads, and stops growing at --shadow-limit (the report says what was not checked). Exit status 1 when there are findings (as compute-sanitizer --error-exitcode 1), 0 when there are none.`;
  static override examples = [
    '<%= config.bin %> check kernels/reductions.ts',
    '<%= config.bin %> check my_kernel.ts --tool racecheck --grid 4',
    '<%= config.bin %> check kernels/streams.ts --json -o findings.json',
  ];
  static override enableJsonFlag = true;
  static override args = {
    file: Args.string({ description: 'kernel file (.ts)' }),
  };
  static override flags = {
    'kernel-name': Flags.string({ char: 'k', aliases: ['kernel'], multiple: true, description: 'kernel or program name to check (repeatable; regex:<expr> matches)' }),
    tool: Flags.option({ options: ['racecheck', 'synccheck', 'initcheck', 'memcheck'] as const, multiple: true, description: 'report only these tools\' findings (repeatable; default all four)' })(),
    arch: Flags.string({ default: 'h200', description: 'GPU to emulate: h200, h100, a100' }),
    param: Flags.string({ multiple: true, description: 'scalar kernel parameter, name=value (repeatable)' }),
    grid: Flags.string({ description: 'override the grid, x[,y[,z]] (a smaller grid checks faster: races between blocks need two of them)' }),
    block: Flags.string({ description: 'override the block, x[,y[,z]]' }),
    'shadow-limit': Flags.integer({ min: 1, default: 256, description: 'MiB of shadow memory the checker may hold; locations beyond it are not checked (a note says so)' }),
    output: Flags.string({ char: 'o', description: 'write the findings as JSON (schemas/check.schema.json) to this file (refuses to overwrite without -f)' }),
    force: Flags.boolean({ char: 'f', description: 'overwrite the -o file if it exists' }),
    'max-warp-instructions': Flags.integer({ min: 1, default: 50_000_000, description: 'instructions one warp may execute before the run stops as a runaway loop' }),
  };

  async run(): Promise<CheckReport> {
    const { args, flags } = await this.parse(Check);
    if (args.file === undefined) throw new UserError('missing the kernel file: warpsight check <file.ts> (see `warpsight kernels`)', 2);
    if (flags.output !== undefined) {
      // before the run: an existing file is not overwritten unless asked
      if (!flags.force && existsSync(flags.output)) throw new UserError(`-o ${flags.output}: the file exists; pass -f (--force) to overwrite it, or choose another name`, 2);
      checkWritable('--output (-o)', flags.output);
    }
    const { checkFile } = await import('../src/check/run.js');
    const report = await checkFile({
      file: args.file,
      ...(flags['kernel-name'] ? { kernel: flags['kernel-name'] } : {}),
      arch: flags.arch,
      params: parseParams(flags.param),
      ...(flags.grid !== undefined ? { grid: parseDim3('grid', flags.grid) } : {}),
      ...(flags.block !== undefined ? { block: parseDim3('block', flags.block) } : {}),
      ...(flags.tool ? { tools: [...new Set(flags.tool)] } : {}),
      shadowBytes: flags['shadow-limit'] * 1024 * 1024,
      maxWarpInstructions: flags['max-warp-instructions'],
    });
    if (flags.output !== undefined) writeOutput('--output (-o)', flags.output, `${JSON.stringify(report, null, 2)}\n`);
    if (report.summary.errors > 0) process.exitCode = 1;
    if (this.jsonEnabled()) return report;
    const { renderCheck } = await import('../src/check/render.js');
    process.stdout.write(renderCheck(report));
    return report;
  }
}
