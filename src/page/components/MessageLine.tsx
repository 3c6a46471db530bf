/// <reference lib="dom" />
/**
 * The line at the bottom that says what the person just did, in the screen's words, or the
 * keeper's sentence when it refused; while a change may be taken back, it says so (`· u undoes
 * it`, as the screen's message line does) and offers a button that does it. The page's footer,
 * so that what it says is within a landmark as the rest of the page is.
 */
import { usePage } from '../page-context.js';

export function MessageLine({ onUndo }: { onUndo(): void }) {
  const { words, state } = usePage();
  const { message, undo } = state;
  const text = message ? (undo ? words.say.undoOffer(message.text, 'u') : message.text) : '';
  return (
    <footer className={`message ${message?.tone ?? ''}`}>
      <p role="status" aria-live="polite">{text}</p>
      {undo && <button type="button" onClick={onUndo} aria-keyshortcuts="u">{words.commands.undo} <kbd>u</kbd></button>}
    </footer>
  );
}
