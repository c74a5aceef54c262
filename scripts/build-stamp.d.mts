/** the files and folders `npm run build` reads */
export const BUILD_INPUTS: readonly string[];
/** sha-256 over the build inputs' paths and bytes */
export function buildInputsHash(root: string): string;
/** whether dist/ was built from the sources as they are now */
export function distIsCurrent(root: string): boolean;
