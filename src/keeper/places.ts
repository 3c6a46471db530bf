/**
 * Where things are: the store folder (`--store`, else $BINDER_STORE, else $XDG_DATA_HOME/binder,
 * else ~/.local/share/binder), the folders given with `--side FOLDER=NAME`, and the person
 * (`--as NAME`, else the OS user). Shared by `binder serve`, `binder admin` and the screen.
 */
import { userInfo } from 'node:os';
import { join, resolve } from 'node:path';
import { Refused, type Who } from '../store/index.js';
import { agentWho, personWho } from './keeper.js';
import type { SideConfig } from './keeper-types.js';
import { FOLDER_NAME } from './protocol.js';

export { storeFolder, whereStore } from './store-place.js';

/** `FOLDER=NAME` (NAME defaults to "Agent"). */
export function sideOption(given: string, cwd = process.cwd()): SideConfig {
  const at = given.lastIndexOf('=');
  const dir = resolve(cwd, at > 0 ? given.slice(0, at) : given);
  const name = at > 0 ? given.slice(at + 1).trim() : 'Agent';
  if (!name) {
    throw new Refused(
      `The option --side takes FOLDER=NAME, e.g. --side ./.binder=Claude; "${given}" has no name.`,
      `L'option --side prend DOSSIER=NOM, par exemple --side ./.binder=Claude ; « ${given} » n'a pas de nom.`,
    );
  }
  return { dir, who: agentWho(name) };
}

/** The folder read when none is given nor registered: ./.binder, as "Agent". */
export function defaultSide(cwd = process.cwd()): SideConfig {
  return { dir: join(cwd, FOLDER_NAME), who: agentWho('Agent') };
}

export function person(flag: string | undefined): Who {
  if (flag && flag.trim()) return personWho(flag.trim());
  let name = 'person';
  try { name = userInfo().username || name; } catch { /* no passwd entry: keep the plain word */ }
  return personWho(name);
}
