/**
 * The agents' folders a keeper reads, as a person registered them, and the name-to-agent
 * lookup owners and grants use. Registering is a person's alone; nothing here touches a folder.
 */
import { isAbsolute, normalize } from 'node:path';
import { personOnly } from './access.js';
import { iso, type Context } from './context.js';
import { Refused, type Side } from './store.js';
import { slug } from './slug.js';
import { cleanName } from './values.js';
import type { Who } from './types.js';

export function sides(ctx: Context): Side[] {
  return ctx.db.prepare('SELECT name, agent, dir, created FROM sides ORDER BY name').all() as Side[];
}

/** The agent a bare name means, if a side has that name or that agent id. */
export function agentNamed(ctx: Context, name: string): string | undefined {
  const lower = name.trim().toLowerCase();
  const agent = `agent:${slug(name)}`;
  const side = sides(ctx).find((s) => s.name.toLowerCase() === lower || s.agent === agent);
  return side?.agent;
}

export function addSide(ctx: Context, dir: string, name: string, who: Who): Side {
  personOnly(who, 'register an agent\'s folder', 'side add');
  const clean = cleanName(name, 'An agent');
  const given = String(dir);
  if (!isAbsolute(given)) throw new Refused(`An agent's folder is given as an absolute path: "${given.slice(0, 200)}" is not one.`);
  const folder = normalize(given).replace(/(.)\/+$/, '$1');
  const agent = `agent:${slug(clean)}`;
  const all = sides(ctx);
  const taken = all.find((s) => s.name.toLowerCase() === clean.toLowerCase() || s.agent === agent);
  if (taken) throw new Refused(`The name "${clean}" is taken by the folder ${taken.dir}: choose another name.`);
  const same = all.find((s) => s.dir === folder);
  if (same) throw new Refused(`The folder ${folder} is already read for ${same.name}: remove it first to rename it.`);
  const side: Side = { name: clean, agent, dir: folder, created: iso(ctx.now()) };
  ctx.db.prepare('INSERT INTO sides (name, agent, dir, created) VALUES (?, ?, ?, ?)').run(side.name, side.agent, side.dir, side.created);
  ctx.log(who, 'side-add', null, null, { name: side.name, agent, dir: folder });
  return side;
}

export function removeSide(ctx: Context, name: string, who: Who): Side {
  personOnly(who, 'remove an agent\'s folder', 'side remove');
  const given = String(name).trim();
  const lower = given.toLowerCase();
  const side = sides(ctx).find((s) => s.name.toLowerCase() === lower || s.agent === given || s.agent === `agent:${slug(given)}`);
  if (!side) throw new Refused(`There is no agent folder named "${given}": binder admin sides lists them.`);
  ctx.db.prepare('DELETE FROM sides WHERE name = ?').run(side.name);
  ctx.log(who, 'side-remove', null, null, { name: side.name, agent: side.agent, dir: side.dir });
  return side;
}
