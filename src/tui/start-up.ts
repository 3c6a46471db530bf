/**
 * Imported first by the screen's entry, before Ink. Ink's layout engine (yoga-layout) loads its
 * WebAssembly from a string inside its own code, but first asks whether `fetch` is a function,
 * and on Node 20 that question alone loads Node's whole fetch implementation (undici): tens of
 * milliseconds of start-up for nothing. So `fetch` is hidden while Ink loads; `fetch-back.ts`,
 * imported right after Ink, gives it back. It must never stay hidden.
 */
const saved = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
// The descriptor is read without calling its getter, so nothing is loaded here.
if (saved?.configurable) Object.defineProperty(globalThis, 'fetch', { value: undefined, configurable: true, writable: true });

/** Puts `fetch` back as it was (its lazy getter untouched). */
export function fetchBack(): void {
  if (saved?.configurable) Object.defineProperty(globalThis, 'fetch', saved);
}
