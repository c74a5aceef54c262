import type { Hash } from 'node:crypto';

/** the files and folders `npm run build` reads */
export const BUILD_INPUTS: readonly string[];
/** `h` updated with the paths and bytes of every file under `paths` (folders or files of `root`), in sorted order */
export function hashFiles(h: Hash, root: string, paths: readonly string[]): Hash;
/** sha-256 over the build inputs' paths and bytes */
export function buildInputsHash(root: string): string;
/** whether dist/ was built from the sources as they are now */
export function distIsCurrent(root: string): boolean;
