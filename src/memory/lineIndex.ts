/**
 * x mod m for the non-negative integers the caches index by: line numbers are beyond int32 (device
 * addresses / 128), where `%` is a floating-point remainder V8 leaves to a library call. The L2 takes
 * several per request (the family-5 programs ran ~7 % faster without them). A division rounded down,
 * corrected by one when the rounding went the wrong way, gives the same remainder below 2^52.
 */
export function modIndex(x: number, m: number): number {
  if (!(x >= 0 && x < 2 ** 52)) return x % m;
  const q = Math.floor(x / m);
  const r = x - q * m;
  return r < 0 ? r + m : r >= m ? r - m : r;
}
