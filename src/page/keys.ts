/// <reference lib="dom" />
/**
 * A browser's key as the screen's keymap reads keys (src/person/keys.ts's KeyPress), so that a key
 * means on the page what it means on the screen. Pure apart from reading the event.
 */
import { NO_KEY, type KeyName, type KeyPress } from '../person/keys.js';

const NAMED: Readonly<Record<string, KeyName>> = {
  ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right', PageUp: 'pageUp', PageDown: 'pageDown',
  Home: 'home', End: 'end', Enter: 'return', Escape: 'escape', Tab: 'tab', Backspace: 'backspace', Delete: 'delete', Insert: 'insert',
};

export function keyPress(event: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'altKey' | 'shiftKey' | 'metaKey'>): KeyPress {
  if (event.metaKey) return NO_KEY;
  const name = NAMED[event.key];
  if (name) return { name, text: '', ctrl: event.ctrlKey, meta: event.altKey, shift: event.shiftKey };
  if ([...event.key].length !== 1) return NO_KEY;
  return { name: null, text: event.ctrlKey ? event.key.toLowerCase() : event.key, ctrl: event.ctrlKey, meta: event.altKey, shift: false };
}
