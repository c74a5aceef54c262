/**
 * Progress of bench entries and profile launches: a redrawn bar on a terminal, plain lines in CI logs
 * and pipes (a bar's carriage returns turn a log into one unreadable line). Writes to stderr so
 * stdout stays the result. A total of 0 is unknown (a program's launches): a count, no bar.
 */
export interface Progress {
  start(index: number, total: number, label: string): void;
  done(index: number, total: number, label: string, seconds: number): void;
  finish(): void;
}

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const BAR_WIDTH = 24;

export function bar(done: number, total: number, width = BAR_WIDTH): string {
  const filled = total === 0 ? width : Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]`;
}

/** whether progress may redraw a line: a terminal, and not CI (whose logs are files) */
export function isInteractive(stream: ProgressStream, env: NodeJS.ProcessEnv): boolean {
  return stream.isTTY === true && (env.CI === undefined || env.CI === '' || env.CI === 'false');
}

/** A bar when the stream is a terminal and CI is not set; plain lines otherwise. `prefix` names the command. */
export function createProgress(stream: ProgressStream = process.stderr, env: NodeJS.ProcessEnv = process.env, prefix = 'bench'): Progress {
  const of = (n: number, total: number): string => (total > 0 ? `${n}/${total}` : String(n));
  if (!isInteractive(stream, env)) {
    return {
      start: () => {},
      done: (i, total, label, seconds) => stream.write(`${prefix} [${of(i + 1, total)}] ${label}: ${seconds.toFixed(1)} s\n`),
      finish: () => {},
    };
  }
  const cols = Math.max(40, stream.columns ?? 80);
  const line = (text: string): string => (text.length > cols - 1 ? `${text.slice(0, cols - 2)}…` : text.padEnd(cols - 1));
  let drawn = false;
  return {
    // with a total, a bar of the entries done; without one (a program's launches), the launch running
    start: (i, total, label) => {
      drawn = true;
      stream.write(`\r${line(total > 0 ? `${bar(i, total)} ${of(i, total)} ${label}` : `${prefix} [${i + 1}] ${label}`)}`);
    },
    done: (i, total, label, seconds) =>
      stream.write(`\r${line(total > 0 ? `${bar(i + 1, total)} ${of(i + 1, total)} ${label}` : `${prefix} [${i + 1}] ${label}: ${seconds.toFixed(1)} s`)}`),
    // a line that was drawn ends; a run that drew nothing leaves stderr as it was
    finish: () => {
      if (drawn) stream.write('\n');
    },
  };
}
