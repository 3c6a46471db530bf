/**
 * A wait in a process that opened the store itself (`binder admin wait`): it has no keeper's
 * change events to wake it, so it hears of other processes' commits through the store
 * (store.onOtherChange) and reads a brief only then. It never holds a transaction while it waits.
 */
import type { Store, Who } from '../store/index.js';
import { sayNothing, waitLength, waitTarget, type WaitData } from './catalog-together.js';
import type { Perform } from './perform.js';
import type { Answer } from './protocol.js';
import { toldAs } from './text-values.js';

export async function waitHere(store: Store, perform: Perform, who: Who, args: Record<string, unknown>, want?: 'json'): Promise<Answer> {
  const now = await perform('wait', args, who, 'json');
  if (!now.ok || (now.data as WaitData).changed) return shaped(now, want);
  const ms = waitLength(args);
  if (ms === 0) return shaped(now, want);
  return new Promise((done) => {
    let looking = false;
    let again = false;
    let finished = false;
    const finish = (answer: Answer): void => {
      if (finished) return;
      finished = true;
      unlisten();
      clearTimeout(deadline);
      done(shaped(answer, want));
    };
    const look = async (): Promise<void> => {
      if (looking) {
        again = true;
        return;
      }
      looking = true;
      try {
        do {
          again = false;
          let news = true;
          try {
            news = (await store.brief(who, { ...waitTarget(args), peek: true, limit: 1 })).items.length > 0;
          } catch {
            // A refusal (the list went) is the answer's to say.
          }
          if (!news || finished) continue;
          const answer = await perform('wait', args, who, 'json');
          if (!answer.ok || (answer.data as WaitData).changed) finish(answer);
        } while (again && !finished);
      } finally {
        looking = false;
      }
    };
    const unlisten = store.onOtherChange(() => void look());
    const deadline = setTimeout(() => {
      void (async () => {
        const last = await perform('wait', args, who, 'json');
        finish(!last.ok || (last.data as WaitData).changed
          ? last
          : { ok: true, ...toldAs(await sayNothing(args, who, { store }, ms)), data: last.data });
      })();
    }, ms);
  });
}

const shaped = (answer: Answer, want?: 'json'): Answer =>
  (want === 'json' ? answer : { ok: answer.ok, text: answer.text });
