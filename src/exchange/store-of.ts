/**
 * The store a command of `binder admin` moves a binder out of or into: opened, or its refusal said
 * to the person (exit code 2 for the command). Never opens a second store for one command.
 */
import { openAnyStore, Refused, type Store } from '../store/index.js';
import type { Place } from './commands.js';
import { printSentence } from './print.js';

/** The store of `place`, or null once the refusal to open it is said. */
export async function storeOf(place: Place): Promise<Store | null> {
  try {
    return await openAnyStore(place.store);
  } catch (error) {
    if (error instanceof Refused) {
      printSentence(error.message);
      return null;
    }
    throw error;
  }
}
