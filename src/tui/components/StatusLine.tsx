/**
 * The bottom rows: the store, each folder kept and when it last asked, asks answered, and the
 * keys that work here (from the keymap). Folder names come from people, but go through `safe`.
 */
import { Box } from 'ink';
import type { FolderStatus } from '../../keeper/keeper-types.js';
import { useBinder } from '../context.js';
import { ago, cut, displayWidth, safe } from '../../person/format.js';
import { Pieces, type Piece } from './Styled.js';

/** The hints (`Enter open  Esc back`) with each key set apart from what it does. */
function keyPieces(keys: string): Piece[] {
  return keys.split(/( {2})/).flatMap((part): Piece[] => {
    const space = part.indexOf(' ');
    // `+2 more (?)` says how many were left out: no key of its own.
    if (part.trim() === '' || space <= 0 || part.startsWith('+')) return [{ text: part }];
    return [{ text: part.slice(0, space), tone: 'key' }, { text: part.slice(space) }];
  });
}

/** The status line cut to the width: what came to the person first, set apart, then the rest. */
function statusPieces(heard: string | null, rest: string, width: number): Piece[] {
  if (!heard) return [{ text: cut(rest, width) }];
  const first = cut(heard, width);
  const room = width - displayWidth(first) - 3;
  return room > 0 ? [{ text: first, tone: 'warn' }, { text: ` · ${cut(rest, room)}` }] : [{ text: first, tone: 'warn' }];
}

export interface StatusLineProps {
  store: string;
  folders: readonly FolderStatus[];
  at: number;
  keys: string;
  /** Changes waiting in the person's brief, said with its key; null before the first look. */
  unseen: string | null;
  /** Work that came to the person (a record waiting for their approval, a note naming them), said first; null when none. */
  heard?: string | null;
  width: number;
}

/** `~/x` for a path under the home folder: shorter, same meaning. */
function short(path: string): string {
  const home = process.env.HOME;
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

export function StatusLine({ store, folders, at, keys, unseen, heard, width }: StatusLineProps) {
  const { words } = useBinder();
  const answered = folders.reduce((n, f) => n + f.answered, 0);
  const kept = folders.length
    ? folders.map((f) => (f.problem
      ? words.status.problem(safe(f.name), safe(f.problem))
      : words.status.folder(safe(f.name), safe(short(f.dir)), ago(f.lastAsk, at, words)))).join(' · ')
    : words.status.noFolders;
  return (
    <Box flexDirection="column" width={width}>
      <Pieces tone="dim" pieces={statusPieces(heard ? `● ${safe(heard)}` : null, `${unseen ? `${unseen} · ` : ''}${words.status.store} ${safe(short(store))} · ${kept} · ${words.status.answered(answered)}`, width)} />
      <Pieces tone="dim" pieces={keyPieces(cut(keys, width))} />
    </Box>
  );
}
