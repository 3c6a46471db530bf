/**
 * How many changes wait in the person's brief (a peek: it moves nothing), for the status line.
 * Looked at a little after the first frame (keys typed at once come first), then again when the
 * binder changed or the person read the brief or marked it seen, at most once per `everyMs`: on
 * a busy binder of a hundred thousand records that a person never looked at, one peek is tens of
 * milliseconds.
 */
import { useEffect, useRef, useState } from 'react';
import type { Keeper } from '../../keeper/keeper-types.js';
import type { Who } from '../../store/index.js';

const FIRST_LOOK_MS = 300;
/** Beyond this many, the count says "99+". */
const CAP = 99;

export interface Unseen {
  count: number;
  more: boolean;
}

export function useUnseen(keeper: Keeper, person: Who, version: number, read: unknown, everyMs: number): Unseen | null {
  const [unseen, setUnseen] = useState<Unseen | null>(null);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  // The first look waits as if one had just been made, but shorter: the first frame and keys first.
  const last = useRef(Date.now() - everyMs + FIRST_LOOK_MS);
  useEffect(() => {
    if (pending.current) return; // a look is on its way; it will see this change too
    const look = () => {
      pending.current = null;
      last.current = Date.now();
      keeper.store.brief(person, { peek: true, limit: CAP }).then(
        (brief) => setUnseen({ count: brief.items.length, more: brief.more }),
        () => setUnseen(null),
      );
    };
    pending.current = setTimeout(look, Math.max(0, last.current + everyMs - Date.now()));
  }, [keeper, person, version, read, everyMs]);
  useEffect(() => () => {
    if (pending.current) clearTimeout(pending.current);
  }, []);
  return unseen;
}
