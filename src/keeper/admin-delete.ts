/**
 * `binder admin delete` and `delete-list` ask before they delete for good, like `import` and
 * `restore-backup`: on a terminal the person is shown what would go and says yes; piped, nothing
 * is deleted without `--yes`. It must never delete anything itself, nor take a yes from a pipe.
 */
import { Refused, type StoreRules, type Who } from '../store/index.js';
import { confirmed } from './confirm.js';
import { safeSentence } from './terminal-safe.js';
import { asWritten, said } from './text-values.js';

const counted = (n: number, one: string): string => `${n} ${one}${n === 1 ? '' : 's'}`;

/** What the deletion would take, in the words of its question; refused as the deletion would be when there is nothing to delete. */
async function whatGoes(store: StoreRules, name: 'delete' | 'delete-list', args: Record<string, unknown>, who: Who): Promise<string> {
  if (name === 'delete') {
    const ref = typeof args.id === 'number' ? args.id : String(args.id ?? '');
    const { record, counts } = await store.get(ref, who, { notes: 0, history: 0 });
    const parts = [counted(counts.notes, 'note'), counted(record.attached.length, 'attachment')];
    return said`Delete #${record.id} "${record.title}" with its ${parts.join(' and ')}, for good?`.text;
  }
  const ref = String(args.list ?? '');
  const found = (await store.lists(who, { archived: true })).find((l) => l.id === ref || l.title.toLowerCase() === ref.toLowerCase());
  if (!found) await store.list(ref, who);
  const count = found?.count;
  return said`Delete the list ${found?.id ?? ref} "${found?.title ?? ref}"${count === undefined ? '' : ` and its ${counted(count, 'record')}`} with all their notes and attachments, for good?`.text;
}

/** The person's yes, on a terminal; piped, a sentence that says how to give it. */
export async function deletionAgreed(store: StoreRules, name: 'delete' | 'delete-list', args: Record<string, unknown>, who: Who): Promise<boolean> {
  let question: string;
  try {
    question = await whatGoes(store, name, args, who);
  } catch (error) {
    // Said by the deletion itself, in its own words.
    if (error instanceof Refused) return true;
    throw error;
  }
  const again = name === 'delete' ? `binder admin delete ${String(args.id)} --yes` : `binder admin delete-list ${String(args.list)} --yes`;
  if (!process.stdin.isTTY || !process.stderr.isTTY) {
    process.stderr.write(`${asWritten(safeSentence(`Not done: Nothing is deleted without a yes, a deletion being for good. It is asked on a terminal; to delete without the question, run it again with --yes (${again}).`))}\n`);
    return false;
  }
  if (await confirmed(question)) return true;
  process.stderr.write('Nothing deleted.\n');
  return false;
}
