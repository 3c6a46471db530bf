/**
 * What every part of the screen shares and never changes while it runs: the keeper (and its
 * store), the person at the screen, the words, the theme and the clock. Read with `useBinder`.
 */
import { createContext, useContext } from 'react';
import type { Keeper, SideConfig } from '../keeper/keeper-types.js';
import type { Who } from '../store/index.js';
import type { Theme } from './theme.js';
import type { Words } from '../person/words.js';

export interface BinderContext {
  keeper: Keeper;
  person: Who;
  words: Words;
  theme: Theme;
  now: () => number;
  /** The folder given write access to the first list made (the first one kept). */
  firstSide: () => SideConfig | null;
  /** How often to look for changes by another process, and for records falling due (ms). */
  pollMs: number;
  dueMs: number;
  /** The keeper's diagnostics (one line each), shown in the message line instead of over the screen. */
  onDiagnostic: (listener: (line: string) => void) => () => void;
  /** The terminal the screen runs in, for Ctrl-Z; null where it cannot be suspended (a test's). */
  terminal: TerminalControl | null;
  /** A one-time login link to the web page, when the screen answers over HTTP (--http); else undefined. */
  loginLink?: () => Promise<string>;
  /** No agent folder was given nor registered at start: the screen says how to register one. */
  noFolder: boolean;
  /** Shows a notification outside the screen (the terminal's own), or null where there is none (an unknown terminal, --no-notify). */
  notify?: ((title: string, body: string) => void) | null;
}

export interface TerminalControl {
  /** Gives the terminal back as the shell had it and stops the process until it is continued (`fg`). */
  suspend(): void;
  /** Called once the process is continued and the terminal taken back: the screen draws itself again. */
  onResume(listener: () => void): () => void;
}

export const Binder = createContext<BinderContext | null>(null);

export function useBinder(): BinderContext {
  const value = useContext(Binder);
  if (!value) throw new Error('useBinder outside <Binder.Provider>');
  return value;
}
