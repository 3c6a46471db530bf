/**
 * The message line's sentence: the screen's own (with the offer to take back the change it
 * speaks of), else the keeper's last diagnostic. A message about a record that is gone is gone too.
 */
import { useBinder } from '../context.js';
import { keyLabel } from '../../person/help-lines.js';
import { keysFor } from '../../person/keymap.js';
import { BARE } from '../../person/reading.js';
import type { Message, ScreenState } from '../../person/screen-state.js';
import { useLoaded } from './use-loaded.js';

export function useMessage(state: ScreenState, version: number, diagnostic: string | null): Message | null {
  const { keeper, person, words } = useBinder();
  const messageRecord = state.message?.record;
  const recordGone = useLoaded(async () => {
    if (messageRecord === undefined) return false;
    try {
      await keeper.store.get(messageRecord, person, BARE);
      return false;
    } catch {
      return true;
    }
  }, [keeper, person, messageRecord, version], false).value;
  const own = state.message && !recordGone ? state.message : null;
  // The message that said the latest change offers to take it back.
  const latest = state.undos[state.undos.length - 1];
  const offered = own && latest && latest.said === own.text ? { ...own, text: words.say.undoOffer(own.text, keyLabel(keysFor('undo', 'lists')[0]!, words)) } : own;
  return offered ?? (diagnostic ? { text: diagnostic, tone: 'refused' as const } : null);
}
