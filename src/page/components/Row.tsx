/**
 * One row of the panel in front that the keys go over (a record's parts, what changed, search
 * hits, agents, folders, a list's states and fields): the cursor's row is marked and takes the
 * focus when a key brings the cursor to it; a click in a row brings the cursor there.
 */
import type { ReactNode } from 'react';
import { useRow } from '../page-context.js';

export function Row({ at, children }: { at: number; children: ReactNode }) {
  const { props } = useRow<HTMLLIElement>(at);
  return <li {...props}>{children}</li>;
}
