/**
 * Bench progress: a redrawn bar on a terminal, plain lines in CI logs and pipes (a bar's carriage
 * returns turn a log into one unreadable line). Writes to stderr so stdout stays the result.
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

/** A bar when the stream is a terminal and CI is not set; plain lines otherwise. */
export function createProgress(stream: ProgressStream = process.stderr, env: NodeJS.ProcessEnv = process.env): Progress {
  const interactive = stream.isTTY === true && (env.CI === undefined || env.CI === '' || env.CI === 'false');
  if (!interactive) {
    return {
      start: () => {},
      done: (i, total, label, seconds) => stream.write(`bench [${i + 1}/${total}] ${label}: ${seconds.toFixed(1)} s\n`),
      finish: () => {},
    };
  }
  const cols = Math.max(40, stream.columns ?? 80);
  const line = (text: string): string => (text.length > cols - 1 ? `${text.slice(0, cols - 2)}…` : text.padEnd(cols - 1));
  return {
    start: (i, total, label) => stream.write(`\r${line(`${bar(i, total)} ${i}/${total} ${label}`)}`),
    done: (i, total, label) => stream.write(`\r${line(`${bar(i + 1, total)} ${i + 1}/${total} ${label}`)}`),
    finish: () => stream.write('\n'),
  };
}
