/**
 * How a command of `binder admin` beside the catalog opens its store: a store that cannot be
 * opened is said in a sentence and exits 2; a refusal while using it is "Not done: …" and exits 1;
 * the store is closed after, whatever happened. One place, so that every such command says the
 * same as the catalog's do.
 */
import { openAnyStore, Refused, type Store, type StoreSpec } from '../store/index.js';
import { toStderr } from '../keeper/log-line.js';
import { safeSentence } from '../keeper/terminal-safe.js';

export async function withStore(spec: StoreSpec, use: (store: Store) => Promise<number>): Promise<number> {
  let store: Store;
  try {
    store = await openAnyStore(spec, { log: toStderr });
  } catch (error) {
    if (error instanceof Refused) {
      process.stderr.write(`${safeSentence(error.message)}\n`);
      return 2;
    }
    throw error;
  }
  try {
    return await use(store);
  } catch (error) {
    if (error instanceof Refused) {
      process.stderr.write(`${safeSentence(`Not done: ${error.message}`)}\n`);
      return 1;
    }
    throw error;
  } finally {
    await store.close();
  }
}
