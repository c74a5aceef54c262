/**
 * The base of every command: user errors (bad input, kernel faults, bad flags) print as one `error:`
 * line with a non-zero exit — never a stack trace. Kernel stack traces are source-mapped so that
 * kernel source lines are the .ts lines the user wrote.
 */
import { Command } from '@oclif/core';
import { UserError } from '../errors.js';

process.setSourceMapsEnabled(true);

interface OclifError extends Error {
  oclif?: { exit?: number };
}

export abstract class WarpsightCommand extends Command {
  protected override async catch(err: OclifError): Promise<unknown> {
    const exit = err instanceof UserError ? err.exitCode : err.oclif?.exit;
    // oclif's flag-parsing errors carry exit 2 and a multi-line hint; keep the first line
    if (err instanceof UserError || exit === 2) {
      // oclif's parse errors span lines ("Missing 1 required arg:\nfile  kernel file"); join them, drop the help hint
      const lines = err.message.split('\n').map((l) => l.trim());
      const end = lines.findIndex((l) => l.startsWith('See more help') || l.startsWith('Note:'));
      const message = (end < 0 ? lines : lines.slice(0, end)).filter(Boolean).join(' ');
      if (this.jsonEnabled()) this.logJson({ error: { name: err.name, message } });
      else process.stderr.write(`error: ${message}${exit === 2 && !(err instanceof UserError) ? ' (see --help)' : ''}\n`);
      return this.exit(exit ?? 1);
    }
    return super.catch(err);
  }
}
