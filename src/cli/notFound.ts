/**
 * oclif's command_not_found hook: an unknown command is a usage error like any other — one `error:`
 * line naming the commands there are, exit 2 — not oclif's own message and stack.
 */
import type { Hook } from '@oclif/core';
import { EXIT, escapeControl } from '../errors.js';

const hook: Hook<'command_not_found'> = async function (opts) {
  const commands = opts.config.commandIDs.filter((id) => !id.startsWith('plugins')).sort();
  // with a space as topic separator oclif joins the words before the first flag into the id: the
  // command is the first, and a known one followed by a word is a command given an argument it does
  // not take (`warpsight kernels kernels/`), not an unknown command
  const [word = opts.id, extra] = opts.id.split(':');
  if (extra !== undefined && commands.includes(word))
    process.stderr.write(`error: unexpected argument '${escapeControl(extra)}': '${escapeControl(word)}' takes no arguments, only flags (warpsight ${escapeControl(word)} --help)\n`);
  else process.stderr.write(`error: unknown command '${escapeControl(word)}'; the commands are ${commands.join(', ')} (warpsight --help)\n`);
  process.exit(EXIT.USAGE);
};

export default hook;
