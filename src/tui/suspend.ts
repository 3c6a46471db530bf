/**
 * Ctrl-Z: the terminal given back as the shell had it (modes off, raw mode off), the process
 * stopped as a shell's job is; at `fg` the terminal taken again (raw mode, modes) and the screen
 * drawn again whole. A SIGTSTP sent from outside suspends the same way, never leaving the
 * terminal in the screen's modes. Before it stops, it says on the terminal that the keeper stops
 * with it, so agents wait, and how long each waits for an answer.
 */
import type { TerminalControl } from './context.js';
import type { HeldTerminal } from './terminal-modes.js';

interface RawInput {
  isTTY?: boolean;
  setRawMode?(raw: boolean): unknown;
}

/** `notice`: said on the terminal once it is the shell's again, before the process stops (the keeper stops with it). */
export function suspender(held: HeldTerminal, input: RawInput, notice: string, out: { write(text: string): unknown } = process.stdout): TerminalControl {
  const listeners = new Set<() => void>();
  const raw = (on: boolean) => {
    if (input.isTTY) input.setRawMode?.(on);
  };
  const resumed = () => {
    raw(true);
    held.enter();
    for (const listener of listeners) listener();
  };
  const suspend = () => {
    held.leave();
    raw(false);
    out.write(`${notice}\n`);
    // With no listener left, SIGTSTP has its default action again (stop), so the shell sees a job
    // stopped by Ctrl-Z; sent to the whole process group, as the terminal sends it, so that a
    // wrapper the screen was started from (npm start, a script) stops too and the shell gets the terminal.
    process.off('SIGTSTP', suspend);
    process.once('SIGCONT', () => {
      process.on('SIGTSTP', suspend);
      resumed();
    });
    process.kill(0, 'SIGTSTP');
  };
  process.on('SIGTSTP', suspend);
  return {
    suspend,
    onResume(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
