/**
 * Imported by the screen's entry right after Ink: Ink has loaded, so `fetch` (hidden by
 * `start-up.ts` while it did) is given back to anything that may want it.
 */
import { fetchBack } from './start-up.js';

fetchBack();
