/**
 * How the tests run `warpsight` in a child process: the built CLI (bin/run.js, what the package
 * installs) when dist/ was built from the sources as they are (scripts/build-stamp.mjs: CI builds
 * before it tests), else the dev entry through tsx (after an edit, before `npm run build`). Both run
 * the same code; the built one starts in about a third of a second less CPU.
 */
import { join } from 'node:path';
import { distIsCurrent } from '../../scripts/build-stamp.mjs';

export const ROOT = join(import.meta.dirname, '..', '..');

/** whether the tests run the built CLI (dist/ built from the sources as they are) */
export const BUILT_CLI = distIsCurrent(ROOT);

/** node's arguments before the command's: the entry script (and the loader it needs) */
export const CLI_ENTRY: readonly string[] = BUILT_CLI ? [join(ROOT, 'bin', 'run.js')] : ['--import', 'tsx', join(ROOT, 'bin', 'dev.js')];
