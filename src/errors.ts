/**
 * An error caused by the user's input (a kernel, a flag, a file). Commands print its message on one
 * line and exit non-zero; it never shows a stack trace. The message says what went wrong, where
 * (kernel file:line, flag, JSON path) and how to fix it.
 */
export class UserError extends Error {
  constructor(
    message: string,
    /** process exit code: 1 for bad input, 2 for bad flags (oclif's convention) */
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

/** A run-time fault in an emulated kernel (out-of-bounds access, runaway loop, deadlock, bad mask). */
export class KernelFault extends UserError {
  constructor(
    readonly kind: 'out-of-bounds' | 'runaway' | 'deadlock' | 'bad-mask' | 'misaligned' | 'invalid-launch',
    message: string,
  ) {
    super(message, 1);
    this.name = 'KernelFault';
  }
}
