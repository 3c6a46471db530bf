/**
 * What `binder sandbox` hides from an agent and what it lets it write, decided from the command
 * line, the environment and what exists on disk. Pure but for the look at the disk (`seen`), so
 * the Linux (bubblewrap) and macOS (Seatbelt) forms are made from one plan and tested apart.
 * It must never leave the store writable: an `--allow-write` that would reach it is refused.
 */
import { dirname, join, resolve, sep } from 'node:path';
import { FOLDER_NAME } from '../keeper/protocol.js';
import { storeFolder, whereStore } from '../keeper/store-place.js';

/** What a path is on disk, after its links: the plan hides and binds real paths only. */
export interface Seen { kind: 'dir' | 'file' | 'other'; real: string }
export type LookAt = (path: string) => Seen | undefined;

export interface SandboxAsk {
  dir?: string | undefined;
  allowWrite: readonly string[];
  allowRead: readonly string[];
}

export interface Where {
  cwd: string;
  home: string;
  uid: number;
  env: NodeJS.ProcessEnv;
  /** Stores that running keepers hold open (stores-in-use.ts), wherever they were told to look. */
  storesInUse?: readonly string[];
}

export interface Hidden { path: string; kind: 'dir' | 'file'; why: string }

export interface SandboxPlan {
  /** The agent's working directory (`--dir`, else the current one): writable. */
  work: string;
  /** The agent's `.binder` folder, found from `work` up: writable. */
  folder: string | undefined;
  writable: { path: string; why: string }[];
  hidden: Hidden[];
  /** `--allow-read`: shown read-only, even where it would be hidden. */
  readable: string[];
  /** Variables left out of the agent's environment, and why. */
  dropped: { name: string; why: string }[];
  /** The store as the person's commands would open it, for the dry run's words. */
  store: string;
}

export class SandboxRefusal extends Error {}

const within = (path: string, above: string): boolean => path === above || path.startsWith(above.endsWith(sep) ? above : above + sep);

/** Browser profiles (cookies, saved passwords, signed-in sessions), by the home they are under. */
const BROWSER_PROFILES = [
  '.mozilla', '.librewolf', '.config/chromium', '.config/google-chrome', '.config/google-chrome-beta',
  '.config/BraveSoftware', '.config/microsoft-edge', '.config/vivaldi', '.config/opera', 'snap/firefox', 'snap/chromium',
  '.var/app/org.mozilla.firefox', '.var/app/com.google.Chrome', '.var/app/org.chromium.Chromium',
  'Library/Application Support/Google/Chrome', 'Library/Application Support/Firefox', 'Library/Application Support/Chromium',
  'Library/Application Support/BraveSoftware', 'Library/Application Support/Microsoft Edge', 'Library/Safari', 'Library/Cookies',
];

/** PostgreSQL's server sockets, where its packages put them. */
const POSTGRES_SOCKETS = ['/var/run/postgresql', '/run/postgresql'];

const postgresUrl = (value: string): boolean => /^postgres(ql)?:\/\//i.test(value.trim());
/** A connection string in PostgreSQL's key=value form that holds a password ("host=db password=…"). */
const conninfoPassword = (value: string): boolean => /(^|\s)password\s*=/i.test(value);

/** The plan for one run; throws a SandboxRefusal with a sentence for a person. */
export function planSandbox(ask: SandboxAsk, where: Where, look: LookAt): SandboxPlan {
  const { env, home } = where;
  const real = (path: string): string => look(path)?.real ?? path;
  const work = real(resolve(where.cwd, ask.dir ?? '.'));
  if (look(work)?.kind !== 'dir') throw new SandboxRefusal(`There is no folder at ${work} to run the agent in.`);
  const folder = findFolderAbove(work, env, where.cwd, look);

  const hidden: Hidden[] = [];
  const hide = (path: string, why: string): void => {
    const seen = look(path);
    if (!seen || seen.kind === 'other' && !why.includes('socket')) return;
    if (hidden.some((h) => h.path === seen.real)) return;
    hidden.push({ path: seen.real, kind: seen.kind === 'dir' ? 'dir' : 'file', why });
  };
  const spec = whereStore(undefined, env);
  const storeDirs = [storeFolder(undefined, { ...env, BINDER_STORE: undefined }), join(home, '.local', 'share', 'binder')];
  if (spec.kind === 'sqlite') storeDirs.unshift(spec.dir);
  for (const dir of storeDirs) hide(dir, 'the store');
  for (const dir of where.storesInUse ?? []) hide(dir, 'the store, open in a keeper');
  for (const path of [join(home, '.pgpass'), env.PGPASSFILE, env.PGSERVICEFILE, join(home, '.pg_service.conf'), join(home, '.postgresql'), env.PGSSLKEY]) {
    if (path) hide(resolve(where.cwd, path), 'a PostgreSQL password or client key');
  }
  const sockets = [...POSTGRES_SOCKETS];
  if (env.PGHOST?.startsWith('/')) sockets.push(env.PGHOST);
  for (const dir of sockets) hide(dir, "PostgreSQL's server socket");
  for (const profile of BROWSER_PROFILES) hide(join(home, profile), 'a browser profile');
  // A socket reached from inside could start processes outside (a user's systemd, Docker).
  hide(join('/run/user', String(where.uid)), "the session's sockets, which start processes outside");
  for (const socket of ['/var/run/docker.sock', '/run/docker.sock']) hide(socket, "Docker's socket, which starts processes outside");

  const writable: SandboxPlan['writable'] = [{ path: work, why: 'the working directory' }];
  if (folder && !writable.some((w) => within(folder, w.path))) writable.push({ path: folder, why: "the agent's folder" });
  for (const given of ask.allowWrite) {
    const path = real(resolve(where.cwd, given));
    if (!look(path)) throw new SandboxRefusal(`There is nothing at ${path} to allow writing (from --allow-write).`);
    writable.push({ path, why: 'allowed (--allow-write)' });
  }
  refuseReach(writable, hidden, real(home));
  const readable = ask.allowRead.map((given) => {
    const path = real(resolve(where.cwd, given));
    if (!look(path)) throw new SandboxRefusal(`There is nothing at ${path} to allow reading (from --allow-read).`);
    // Reading the store is reading every list, hidden ones too: it is never shown again.
    const store = hidden.find((h) => h.why.startsWith('the store') && (within(path, h.path) || within(h.path, path)));
    if (store) throw new SandboxRefusal(`${path} reaches the store (${store.path}), which an agent never reads: give --allow-read another path.`);
    return path;
  });

  const dropped: SandboxPlan['dropped'] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) continue;
    if (name === 'BINDER_STORE') dropped.push({ name, why: 'where the store is' });
    else if (['PGPASSWORD', 'PGPASSFILE', 'PGSSLKEY', 'PGSERVICEFILE'].includes(name)) dropped.push({ name, why: 'a PostgreSQL password or key' });
    else if (postgresUrl(value) || conninfoPassword(value)) dropped.push({ name, why: 'a PostgreSQL URL' });
    else if (name === 'BINDER_OIDC_CLIENT_SECRET') dropped.push({ name, why: "the HTTP face's sign-in secret" });
  }
  return { work, folder, writable, hidden, readable, dropped, store: spec.kind === 'sqlite' ? spec.dir : 'PostgreSQL' };
}

/**
 * A writable path must not reach the store nor hold the person's home. Hiding the store inside a
 * writable folder is not enough: the agent can move the folder around it aside and put a store of
 * its own where the person's commands will open it. And a writable home lets it change what the
 * person's shell runs (~/.bashrc, ~/.profile), and so act as them outside.
 */
function refuseReach(writable: SandboxPlan['writable'], hidden: readonly Hidden[], home: string): void {
  for (const w of writable) {
    if (within(home, w.path)) {
      throw new SandboxRefusal(`${w.path} holds your home folder: an agent that could write there could change what your shell runs, and act as you. Run it in a project folder (--dir).`);
    }
    for (const store of hidden.filter((h) => h.why.startsWith('the store'))) {
      if (within(w.path, store.path)) {
        throw new SandboxRefusal(`${w.path} is in the store (${store.path}): an agent that could write it could do anything a person can. Give it another folder.`);
      }
      if (within(store.path, w.path)) {
        throw new SandboxRefusal(`${w.path} holds the store (${store.path}): an agent that could write there could put a store of its own in its place. Run it in a folder that does not hold the store, or move the store (BINDER_STORE).`);
      }
    }
  }
}

/** `.binder` from `work` up, or BINDER_DIR: the folder the agent's `binder` will find. */
function findFolderAbove(work: string, env: NodeJS.ProcessEnv, cwd: string, look: LookAt): string | undefined {
  if (env.BINDER_DIR) {
    const named = look(resolve(cwd, env.BINDER_DIR));
    return named?.kind === 'dir' ? named.real : undefined;
  }
  for (let at = work; ; at = dirname(at)) {
    const found = look(join(at, FOLDER_NAME));
    // An agent may leave a link there to another agent's folder, for its next run to write in.
    if (found?.kind === 'dir' && found.real !== join(at, FOLDER_NAME)) {
      throw new SandboxRefusal(`${join(at, FOLDER_NAME)} is a link to ${found.real}: an agent could have made it to write in another agent's folder, so binder sandbox binds no folder through a link. Remove the link, or name the folder in BINDER_DIR.`);
    }
    if (found?.kind === 'dir') return found.real;
    if (dirname(at) === at) return undefined;
  }
}

/** The agent's environment: the person's, less what names or opens the store, marked as inside. */
export function sandboxEnv(plan: SandboxPlan, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const inside: NodeJS.ProcessEnv = { ...env, BINDER_SANDBOX: '1' };
  for (const { name } of plan.dropped) delete inside[name];
  return inside;
}
