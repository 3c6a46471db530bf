/**
 * Imported first by the screen's entry, before Ink. Ink's layout engine (yoga-layout) carries its
 * WebAssembly as a data: URL in its own code, and when `fetch` is a function it fetches it
 * through that; on Node 20 the first call to fetch loads Node's whole fetch implementation
 * (undici): tens of milliseconds of start-up for nothing, where decoding the string in place
 * takes none. So `fetch` is hidden while Ink loads; `fetch-back.ts`, imported right after Ink,
 * gives it back exactly as it was. It must never stay hidden.
 */
const saved = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
if (saved?.configurable) Object.defineProperty(globalThis, 'fetch', { value: undefined, configurable: true, writable: true });

/** Puts `fetch` back as it was. */
export function fetchBack(): void {
  if (saved?.configurable) Object.defineProperty(globalThis, 'fetch', saved);
}
