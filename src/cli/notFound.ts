/**
 * oclif's command_not_found hook: an unknown command is a usage error like any other — one `error:`
 * line naming the commands there are, exit 2 — not oclif's own message and stack.
 */
import type { Hook } from '@oclif/core';
import { EXIT, escapeControl } from '../errors.js';

const hook: Hook<'command_not_found'> = async function (opts) {
  const commands = opts.config.commandIDs.filter((id) => !id.startsWith('plugins')).sort();
  // with a space as topic separator oclif joins the words after it into the id: the command is the first
  const word = opts.id.split(':')[0] ?? opts.id;
  process.stderr.write(`error: unknown command '${escapeControl(word)}'; the commands are ${commands.join(', ')} (warpsight --help)\n`);
  process.exit(EXIT.USAGE);
};

export default hook;
