/**
 * The base of every command: whatever a command throws — a user error, a kernel fault, a bad flag, an
 * exception nobody expected — prints as one `error:` line with the exit code of its class
 * (src/errors.ts), never a stack trace. Kernel stack traces are source-mapped so that kernel source
 * lines are the .ts lines the user wrote.
 */
import { Command, Flags, type Interfaces } from '@oclif/core';
import { EXIT, UserError, escapeControl } from '../errors.js';
import { errorLine } from './errorLine.js';

process.setSourceMapsEnabled(true);

interface OclifError extends Error {
  code?: string;
  oclif?: { exit?: number };
}

export abstract class WarpsightCommand extends Command {
  protected override async catch(err: OclifError): Promise<unknown> {
    // this.exit() inside run() throws oclif's ExitError: the command already said what it had to
    if (err.code === 'EEXIT' && typeof err.oclif?.exit === 'number') throw err;
    const { message, exit } = errorLine(err);
    // stderr gets the line whatever the output format; --json also gets it as JSON on stdout
    process.stderr.write(`error: ${message}\n`);
    if (this.jsonEnabled()) this.logJson({ error: { name: err instanceof UserError ? err.name : 'Error', message, exit } });
    return this.exit(exit);
  }

  /**
   * oclif's parse, then one rule for every command: a flag given an empty value (`--grid=`, `-k ''`,
   * `-o ''`) is an error, not the flag left out (an empty `--grid=` used to be ignored silently).
   */
  protected override async parse<F extends Record<string, unknown>, B extends Record<string, unknown>, A extends Record<string, unknown>>(
    options?: Interfaces.Input<F, B, A>,
    argv?: string[],
  ): Promise<Interfaces.ParserOutput<F, B, A>> {
    const out = await super.parse<F, B, A>(options, argv);
    const defs = (options?.flags ?? {}) as Record<string, { char?: string; description?: string } | undefined>;
    for (const [name, value] of Object.entries(out.flags as Record<string, unknown>)) {
      const empty = value === '' || (Array.isArray(value) && value.some((v) => typeof v === 'string' && v.trim() === ''));
      if (!empty) continue;
      const def = defs[name];
      const short = def?.char ? ` (-${def.char})` : '';
      throw new UserError(`--${name}${short}: the value is empty; give a value${def?.description ? ` (${def.description})` : ''} or leave the flag out`, EXIT.USAGE);
    }
    for (const [name, value] of Object.entries(out.args as Record<string, unknown>))
      if (value === '') throw new UserError(`<${name}>: the argument is empty; give a value`, EXIT.USAGE);
    return out;
  }

  /** a profile request's `--jobs`: where the kernels must run one at a time, a warning says why */
  protected jobsOf(jobs: number): { jobs?: number; onInTurn?: (why: string) => void } {
    return jobs > 1 ? { jobs, onInTurn: (why) => this.warn(`--jobs ${jobs}: the kernels run one at a time: ${why}`) } : {};
  }

  /** warnings as one `warning:` line, like errors (oclif's own style spans lines and indents) */
  override warn(input: string | Error): string | Error {
    if (!this.jsonEnabled()) process.stderr.write(`warning: ${escapeControl(typeof input === 'string' ? input : input.message)}\n`);
    return input;
  }
}

/** `--jobs` of the commands that profile a kernel file (profile, validate): src/profile/jobs.ts */
export const kernelJobsFlag = Flags.integer({
  min: 1,
  max: 64,
  default: 1,
  description:
    "profile this many of the file's kernels at a time, each in a process of its own (the report is the same as one at a time); programs, --cache-control none, the launch filters and --explain run them in turn",
});
