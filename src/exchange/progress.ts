/**
 * A progress bar for a long export or import, on the person's terminal only: drawn on stderr by
 * cli-progress when stderr is a terminal and the work is long, nothing at all when it is piped.
 * It never writes to stdout, which carries the answer (or the export itself).
 */

export interface Progress {
  /** How many of the total are done. */
  to(done: number): void;
  /** Ends the bar (and its timer); safe to call twice. */
  stop(): void;
}

/** Makes a bar once the total is known (the work itself runs in one synchronous stretch). */
export type ProgressMaker = (what: string, total: number) => Progress;

/** Below this many records the work is over before a bar would say anything. */
export const PROGRESS_FROM = 2000;

export const SILENT: Progress = { to() {}, stop() {} };

/** A maker of bars on `stream` if it is a terminal (cli-progress loaded then only), else of silence. */
export async function progressMaker(stream: NodeJS.WriteStream = process.stderr): Promise<ProgressMaker> {
  if (!stream.isTTY) return () => SILENT;
  const { SingleBar } = (await import('cli-progress')).default;
  return (what, total) => {
    if (total < PROGRESS_FROM) return SILENT;
    const bar = new SingleBar({
      format: `${what} [{bar}] {percentage}% {value}/{total} records, {eta_formatted} left`,
      stream,
      barsize: 30,
      hideCursor: true,
      clearOnComplete: true,
      // The work runs in one synchronous stretch: the bar is drawn from update() itself.
      synchronousUpdate: true,
      gracefulExit: false,
    });
    bar.start(total, 0);
    let stopped = false;
    return {
      to(done) { if (!stopped) bar.update(done); },
      stop() {
        if (stopped) return;
        stopped = true;
        bar.stop();
      },
    };
  };
}
