/**
 * A wait in a process that opened the store itself (`binder admin wait`): it has no keeper's
 * change events to wake it, so it looks at PRAGMA data_version — which moves only when another
 * connection committed — every 100 ms, and reads a brief only then. It never holds a lock while
 * it waits.
 */
import type { Store } from '../store/store.js';
import type { Who } from '../store/types.js';
import { sayNothing, waitLength, waitTarget, type WaitData } from './catalog-together.js';
import type { Perform } from './perform.js';
import type { Answer } from './protocol.js';

const LOOK_MS = 100;

export function waitHere(store: Store, perform: Perform, who: Who, args: Record<string, unknown>, want?: 'json'): Promise<Answer> {
  const now = perform('wait', args, who, 'json');
  if (!now.ok || (now.data as WaitData).changed) return Promise.resolve(shaped(now, want));
  const ms = waitLength(args);
  if (ms === 0) return Promise.resolve(shaped(now, want));
  return new Promise((done) => {
    let version = store.dataVersion();
    const finish = (answer: Answer): void => {
      clearInterval(look);
      clearTimeout(deadline);
      done(shaped(answer, want));
    };
    const look = setInterval(() => {
      const seen = store.dataVersion();
      if (seen === version) return;
      version = seen;
      let news = true;
      try {
        news = store.brief(who, { ...waitTarget(args), peek: true, limit: 1 }).items.length > 0;
      } catch {
        // A refusal (the list went) is the answer's to say.
      }
      if (!news) return;
      const answer = perform('wait', args, who, 'json');
      if (!answer.ok || (answer.data as WaitData).changed) finish(answer);
    }, LOOK_MS);
    const deadline = setTimeout(() => {
      const last = perform('wait', args, who, 'json');
      finish(!last.ok || (last.data as WaitData).changed
        ? last
        : { ok: true, text: sayNothing(args, who, { store }, ms), data: last.data });
    }, ms);
  });
}

const shaped = (answer: Answer, want?: 'json'): Answer =>
  (want === 'json' ? answer : { ok: answer.ok, text: answer.text });
