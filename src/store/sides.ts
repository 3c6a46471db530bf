/**
 * The agents' folders a keeper reads, as a person registered them — each bound to the directory
 * that was there (`dev:ino:birth`, found by the face that registers it) — and the name-to-agent lookup
 * owners and grants use. Registering is a person's alone; nothing here touches a folder.
 */
import { isAbsolute, normalize } from 'node:path';
import { iso, type Context } from './context.js';
import type { Side } from './store.js';
import { slug } from './slug.js';
import { cleanName } from './values.js';
import type { Who } from './types.js';
import { refusal } from './words/index.js';

export async function sides(ctx: Context): Promise<Side[]> {
  return (await ctx.q.all('SELECT name, agent, dir, created, bound FROM sides ORDER BY name')) as Side[];
}

/** The agent a bare name means, if a side has that name or that agent id. */
export async function agentNamed(ctx: Context, name: string): Promise<string | undefined> {
  const lower = name.trim().toLowerCase();
  const agent = `agent:${slug(name)}`;
  const side = (await sides(ctx)).find((s) => s.name.toLowerCase() === lower || s.agent === agent);
  return side?.agent;
}

export async function addSide(ctx: Context, dir: string, name: string, who: Who, bind?: (dir: string) => string): Promise<Side> {
  const clean = cleanName(name, 'nameOfAnAgent');
  const given = String(dir);
  if (!isAbsolute(given)) {
    const shown = given.slice(0, 200);
    throw refusal('folderNotAbsolute', [shown]);
  }
  const folder = normalize(given).replace(/(.)\/+$/, '$1');
  const agent = `agent:${slug(clean)}`;
  const all = await sides(ctx);
  // The same folder under the same name: registered again, bound to the directory there now.
  const again = all.find((s) => s.dir === folder && (s.name.toLowerCase() === clean.toLowerCase() || s.agent === agent));
  const taken = again ? undefined : all.find((s) => s.name.toLowerCase() === clean.toLowerCase() || s.agent === agent);
  if (taken) {
    throw refusal('folderNameTaken', [clean, taken.dir]);
  }
  const same = again ? undefined : all.find((s) => s.dir === folder);
  if (same) {
    throw refusal('folderReadAlready', [folder, same.name]);
  }
  const bound = bind ? bind(folder) : null;
  const twin = bound === null ? undefined : all.find((s) => s.bound === bound && s !== again);
  if (twin) {
    throw refusal('folderTwin', [folder, twin.dir, twin.name]);
  }
  if (again) {
    ctx.foldersChanged();
    (await ctx.q.run('UPDATE sides SET bound = ? WHERE name = ?', [bound, again.name]));
    // Read afresh: no place kept in the files of the directory it was bound to before is used for this one.
    (await ctx.q.run('DELETE FROM folder_marks WHERE dir IN (?, ?)', [again.bound ?? '', bound ?? '']));
    await ctx.log(who, 'side-add', null, null, { name: again.name, agent: again.agent, dir: folder, again: true });
    return { ...again, bound, again: true };
  }
  const side: Side = { name: clean, agent, dir: folder, created: iso(ctx.now()), bound };
  ctx.foldersChanged();
  (await ctx.q.run('INSERT INTO sides (name, agent, dir, created, bound) VALUES (?, ?, ?, ?, ?)', [side.name, side.agent, side.dir, side.created, side.bound]));
  await ctx.log(who, 'side-add', null, null, { name: side.name, agent, dir: folder });
  return side;
}

/** A keeper's first sight of a registered folder that has no binding yet: `bound` is recorded unless one is. */
export async function bindSide(ctx: Context, dir: string, bound: string): Promise<string> {
  ctx.foldersChanged();
  (await ctx.q.run('UPDATE sides SET bound = ? WHERE dir = ? AND bound IS NULL', [bound, dir]));
  const row = (await ctx.q.get('SELECT bound FROM sides WHERE dir = ?', [dir])) as { bound: string | null } | undefined;
  return row?.bound ?? bound;
}

export async function removeSide(ctx: Context, name: string, who: Who): Promise<Side> {
  const given = String(name).trim();
  const lower = given.toLowerCase();
  const side = (await sides(ctx)).find((s) => s.name.toLowerCase() === lower || s.agent === given || s.agent === `agent:${slug(given)}`);
  if (!side) {
    throw refusal('noFolder', [given]);
  }
  ctx.foldersChanged();
  (await ctx.q.run('DELETE FROM sides WHERE name = ?', [side.name]));
  await ctx.log(who, 'side-remove', null, null, { name: side.name, agent: side.agent, dir: side.dir });
  return side;
}
