/**
 * Stands in for `new Intl.Segmenter(…)` in the modules Ink draws with (scripts/screen-plugins.mjs): the
 * first Intl object a process makes costs tens of milliseconds of ICU's set-up, and the rows of
 * a frame are nearly always made of characters that are each a grapheme of their own
 * (`eachCharacterAlone`), which need no segmenter to be cut into graphemes. Only a text with any
 * other character makes (once) and asks the real one. It must give exactly the segments the real
 * one would, with `containing` and iteration as its segments have (test/tui/graphemes.test.ts).
 */
import { eachCharacterAlone } from './text-width.js';

/** One segment, as `Intl.Segmenter` gives it. */
interface Segment {
  segment: string;
  index: number;
  input: string;
}

/** What `segment()` returns, as far as the modules that use it go. */
export interface Segments extends Iterable<Segment> {
  containing(index?: number): Segment | undefined;
}

export interface SegmenterLike {
  segment(input: string): Segments;
  resolvedOptions(): Intl.ResolvedSegmenterOptions;
}

/** The segments of a text whose every character is a grapheme: one per character. */
function characterSegments(input: string): Segments {
  const at = (index: number): Segment => ({ segment: input[index]!, index, input });
  return {
    containing(index = 0) {
      const i = Math.trunc(Number(index) || 0);
      return i >= 0 && i < input.length ? at(i) : undefined;
    },
    *[Symbol.iterator]() {
      for (let i = 0; i < input.length; i++) yield at(i);
    },
  };
}

/** `new Intl.Segmenter(locales, options)`, made when a text first needs it. */
export function segmenterWhenNeeded(locales?: string | string[], options?: Intl.SegmenterOptions): SegmenterLike {
  let real: Intl.Segmenter | undefined;
  const made = (): Intl.Segmenter => (real ??= new Intl.Segmenter(locales, options));
  const graphemes = (options?.granularity ?? 'grapheme') === 'grapheme';
  return {
    segment: (input) => (graphemes && eachCharacterAlone(String(input)) ? characterSegments(String(input)) : made().segment(input)),
    resolvedOptions: () => made().resolvedOptions(),
  };
}
