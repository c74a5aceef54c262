/**
 * A child process of the fidelity setup (fidelityReports.ts): runs the `warpsight` commands its
 * parent sends, one at a time, in this process, as the CLI runs them (oclif's command classes, its
 * flag parsing and its -o writer), with oclif's configuration loaded once. The setup's reports are
 * what `warpsight profile … -o` writes; a process per report paid the CLI's start (0.4-0.5 s of CPU)
 * 46 times.
 *
 *   node [--import tsx] test/setup/cliWorker.mjs <repository root> built|dev
 *
 * `built`: the commands of dist/ (bin/run.js's); `dev`: the TypeScript commands through tsx (bin/dev.js's).
 * A message { id, argv } is answered { id, code } (the exit code) or { id, error } (what escaped).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Config, settings } from '@oclif/core';

const [root = '', mode = 'built'] = process.argv.slice(2);

async function load() {
  // dist/'s commands, as bin/run.js runs them: vitest sets NODE_ENV=test, for which oclif would
  // otherwise run ./commands' TypeScript through tsx
  settings.enableAutoTranspile = false;
  if (mode === 'built') return Config.load(root);
  // as bin/dev.js: the commands and the hook from the sources
  const pjson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  pjson.oclif.commands = './commands';
  pjson.oclif.hooks = { command_not_found: './src/cli/notFound.ts' };
  return Config.load({ root, pjson });
}

const config = await load();

process.on('message', async ({ id, argv }) => {
  process.exitCode = undefined;
  let reply;
  try {
    await config.runCommand(argv[0], argv.slice(1));
    reply = { id, code: typeof process.exitCode === 'number' ? process.exitCode : 0 };
  } catch (e) {
    const exit = e?.oclif?.exit;
    reply = e?.code === 'EEXIT' && typeof exit === 'number' ? { id, code: exit } : { id, error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
  // a command's exit code is its own, not this process's
  process.exitCode = undefined;
  process.send?.(reply);
});
process.send?.({ ready: true });
