/**
 * A scalar parameter's value as the user typed it (`--param n=4096`, a bench suite's params), checked
 * against the parameter's declared type where it enters: a u32 takes whole numbers 0 to 2^32-1, so
 * `-5`, `1e30` and `1.5` are errors, not 4294967291, 0 and 1 run silently. Kernels and programs share
 * it (a program's parameters have no declared type: any finite number).
 */
import { UserError } from '../errors.js';
import type { ScalarKind, ScalarType } from '../ir/types.js';

const INT_RANGE: Partial<Record<ScalarKind, readonly [bigint, bigint]>> = {
  i8: [-(2n ** 7n), 2n ** 7n - 1n],
  u8: [0n, 2n ** 8n - 1n],
  i16: [-(2n ** 15n), 2n ** 15n - 1n],
  u16: [0n, 2n ** 16n - 1n],
  i32: [-(2n ** 31n), 2n ** 31n - 1n],
  u32: [0n, 2n ** 32n - 1n],
  i64: [-(2n ** 63n), 2n ** 63n - 1n],
  u64: [0n, 2n ** 64n - 1n],
};

/** the largest finite float32 */
const F32_MAX = 3.4028234663852886e38;

/** what a kind takes, for messages: "a u32 (a whole number 0 to 4294967295)" */
export function describeKind(kind: ScalarKind | undefined): string {
  if (kind === undefined) return 'a number';
  const r = INT_RANGE[kind];
  if (r) return `a ${kind} (a whole number ${r[0]} to ${r[1]})`;
  if (kind === 'f32') return 'an f32 (a finite number within ±3.4028235e38)';
  if (kind === 'f64') return 'an f64 (a finite number)';
  return 'a pred (0, 1, true or false)';
}

/**
 * `raw` as the value of scalar `name` of type `type` (undefined: untyped, a program's), or a UserError
 * (exit 2) naming `flag` (`--param n=-5`) and what the type takes. `owner` names the kernel or program.
 */
export function parseScalarParam(name: string, raw: string, type: ScalarType | undefined, owner: string, flag = `--param ${name}=${raw}`): number {
  const kind = type?.kind;
  const text = raw.trim();
  const takes = `'${name}' of ${owner} is ${describeKind(kind)}`;
  if (text === '') throw new UserError(`${flag}: the value is empty; ${takes}`);
  if (kind === 'pred') {
    if (text === 'true' || text === '1') return 1;
    if (text === 'false' || text === '0') return 0;
    throw new UserError(`${flag}: '${raw}' is not a predicate value; ${takes}`);
  }
  const v = Number(text);
  if (Number.isNaN(v)) throw new UserError(`${flag}: '${raw}' is not a number; ${takes}`);
  if (!Number.isFinite(v)) throw new UserError(`${flag}: ${raw} is not finite; ${takes}`);
  const range = kind === undefined ? undefined : INT_RANGE[kind];
  if (range) {
    if (!Number.isInteger(v)) throw new UserError(`${flag}: ${raw} is not a whole number; ${takes}`);
    const big = BigInt(v);
    if (big < range[0] || big > range[1]) throw new UserError(`${flag}: ${raw} is out of range; ${takes}`);
    // scalars travel as JS numbers: past 2^53 the value typed is not the value that would run
    if (!Number.isSafeInteger(v)) throw new UserError(`${flag}: ${raw} cannot be passed exactly (whole numbers beyond ±2^53 lose precision); give a value within ±9007199254740991`);
    return v;
  }
  if (kind === 'f32' && Math.abs(v) > F32_MAX) throw new UserError(`${flag}: ${raw} is out of range; ${takes}`);
  return v;
}
