/**
 * `binder completion names lists|states [LIST|ID]`: the words a shell's completion offers for a
 * list or a state, one a line, asked of the binder through the folder as the agent's `binder`
 * asks (so only what that folder may see). Where no keeper answers, it prints nothing and exits
 * 0 at once: a completion never hangs a shell nor prints a sentence into it. Light: it runs on
 * every TAB, from the agent's bundle.
 */
import { askKeeper } from '../agent/ask.js';
import { findFolder } from '../agent/find-folder.js';

/** How long a TAB may wait for the keeper. */
const WAIT_MS = 1_500;

/** A word a shell splits nothing from and shows as it is; else the slug beside it. */
const shellWord = (name: string, id: string): string => (/^[\p{L}\p{N}._+-]{1,80}$/u.test(name) ? name : id);

export async function completionNames(argv: readonly string[], env: NodeJS.ProcessEnv, cwd: string, out: (text: string) => void): Promise<number> {
  const found = findFolder({ env, cwd });
  if (!found.found) return 0;
  const ask = async (op: string, args: Record<string, unknown>): Promise<unknown> => {
    const answer = await askKeeper(found.folder, op, args, { want: 'json', waitMs: WAIT_MS });
    return answer.outcome === 'answered' && answer.ok ? answer.data : undefined;
  };
  let words: string[] = [];
  if (argv[0] === 'lists') {
    const lists = (await ask('lists', {})) as Array<{ id: string; title: string }> | undefined;
    words = (lists ?? []).map((l) => l.id);
  } else if (argv[0] === 'states' && argv[1]) {
    let list = argv[1];
    if (/^#?\d+$/.test(list)) {
      const got = (await ask('get', { id: Number(list.replace('#', '')) })) as { record?: { list?: string } } | undefined;
      list = got?.record?.list ?? '';
    }
    const shown = list ? ((await ask('show', { list })) as { list?: { states?: Array<{ id: string; name: string }> } } | undefined) : undefined;
    words = (shown?.list?.states ?? []).map((s) => shellWord(s.name, s.id));
  }
  // Ids are slugs; what is not one is left out rather than shown raw.
  const safe = words.filter((w) => /^[\p{L}\p{N}._+-]{1,80}$/u.test(w));
  if (safe.length) out(`${safe.join('\n')}\n`);
  return 0;
}
