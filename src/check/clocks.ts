/**
 * Sparse vector clocks for happens-before. An agent is a warp of the launch (its block's linear index
 * times the warps per block, plus its index in the block): the interpreter runs a warp's lanes in
 * step, so the checker orders by warp, and a clock holds only the agents this one has synchronised
 * with (its block's warps after a barrier, the releasers it acquired from), not the whole grid.
 */
export type Clock = Map<number, number>;

/** `into` becomes the join (element-wise maximum) of itself and `from` */
export function join(into: Clock, from: Clock): void {
  for (const [a, c] of from) {
    const have = into.get(a);
    if (have === undefined || have < c) into.set(a, c);
  }
}

export function copyClock(c: Clock): Clock {
  return new Map(c);
}

/** whether the access of `agent` at time `at` happens before the present of the clock's owner */
export function covers(c: Clock, agent: number, at: number): boolean {
  const have = c.get(agent);
  return have !== undefined && have >= at;
}
