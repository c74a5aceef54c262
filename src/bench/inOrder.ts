/**
 * Independent tasks run side by side, their results taken in order: what `bench --jobs` and `profile
 * --jobs` print is what running them one at a time prints.
 */

/**
 * Starts tasks 0..count-1, at most `jobs` at a time (the next starts as soon as any ends, so one slow
 * task does not idle the others), and yields their results in task order. A task's failure is thrown
 * when its turn comes (the tasks before it were started and are yielded first); a task started
 * beside it that fails too is dropped, not left unhandled.
 */
export async function* inOrder<T>(count: number, jobs: number, start: (i: number) => Promise<T>): AsyncGenerator<T> {
  const started: Promise<T>[] = [];
  // after a failure (or once the results are no longer taken) nothing more starts: one at a time,
  // nothing after a failure would have run
  let going = true;
  const stop = (): void => {
    going = false;
  };
  const launch = (): void => {
    if (!going || started.length >= count) return;
    const p = start(started.length);
    started.push(p);
    p.then(launch, stop);
  };
  for (let j = 0; j < Math.max(1, jobs); j++) launch();
  try {
    for (let i = 0; i < count; i++) yield await (started[i] as Promise<T>);
  } finally {
    stop();
  }
}
