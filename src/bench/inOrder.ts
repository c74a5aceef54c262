/**
 * Independent tasks run side by side, their results taken in order: what `bench --jobs` and `profile
 * --jobs` print is what running them one at a time prints.
 */

/** a task's result and the seconds it took from its start to its end (not to when its turn came) */
export interface Done<T> {
  result: T;
  seconds: number;
}

/**
 * Starts tasks 0..count-1, at most `jobs` at a time (the next starts as soon as any ends, so one slow
 * task does not idle the others), and yields their results in task order. A task's failure is thrown
 * when its turn comes (the tasks before it were started and are yielded first); a task started
 * beside it that fails too is dropped, not left unhandled.
 */
export async function* inOrder<T>(count: number, jobs: number, start: (i: number) => Promise<T>): AsyncGenerator<Done<T>> {
  const started: Promise<Done<T>>[] = [];
  // after a failure (or once the results are no longer taken) nothing more starts: one at a time,
  // nothing after a failure would have run
  let going = true;
  const stop = (): void => {
    going = false;
  };
  const launch = (): void => {
    if (!going || started.length >= count) return;
    const t0 = performance.now();
    const p = start(started.length).then((result) => ({ result, seconds: (performance.now() - t0) / 1000 }));
    started.push(p);
    p.then(launch, stop);
  };
  for (let j = 0; j < Math.max(1, jobs); j++) launch();
  try {
    for (let i = 0; i < count; i++) yield await (started[i] as Promise<Done<T>>);
  } finally {
    stop();
  }
}
