/**
 * The base of every command: user errors (bad input, kernel faults) print as one `error:` line with a
 * non-zero exit — never a stack trace. Kernel stack traces are source-mapped to the .ts lines.
 */
import { Command } from '@oclif/core';
import { UserError } from '../errors.js';

// kernel files are TypeScript: map stack traces (and so kernel source lines) back to their .ts lines
process.setSourceMapsEnabled(true);

export abstract class WarpsightCommand extends Command {
  protected override async catch(err: Error & { exitCode?: number; oclif?: { exit?: number } }): Promise<unknown> {
    if (err instanceof UserError) {
      if (this.jsonEnabled()) this.logJson({ error: { name: err.name, message: err.message } });
      else process.stderr.write(`error: ${err.message}\n`);
      return this.exit(err.exitCode);
    }
    return super.catch(err);
  }
}
