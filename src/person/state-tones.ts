/**
 * A state's tone by its place in its list, the same for every list: where records start, where
 * they are worked on, the gate a person approves them past, and the last state, where they end.
 * A colour on the screen where the terminal has colour; never the only way a state is told (its
 * name is always written, and the gate says `gate`).
 */
import type { State } from '../store/index.js';

export type StateTone = 'start' | 'busy' | 'gate' | 'end';

export function stateTone(states: readonly Pick<State, 'id' | 'gate'>[], id: string): StateTone {
  const at = states.findIndex((s) => s.id === id);
  if (at < 0) return 'busy';
  if (states[at]!.gate) return 'gate';
  if (at === states.length - 1 && states.length > 1) return 'end';
  return at === 0 ? 'start' : 'busy';
}
