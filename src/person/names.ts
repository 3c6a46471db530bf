/**
 * People and agents by the names people know them by, everywhere on the screen: an owner's id
 * (`agent:claude`, `person:ann`) becomes the name its folder was registered under, or the name
 * the binder last saw it act under, else the id without its kind. Pure; the names it gives are
 * made terminal-safe. It never shows a kind prefix a person did not type.
 */
import { whoName } from '../store/light.js';
import { safe } from './format.js';

export type NameOf = (id: string) => string;

/**
 * Names from everyone known (folders, registered sides, the person, whoever acted on a record);
 * a signed-in person with the e-mail their provider gave (`Ann Lee <ann@acme.test>`).
 */
export function namesFrom(known: Iterable<{ id: string; name: string; email?: string }>): NameOf {
  const names = new Map<string, string>();
  for (const who of known) if (who.name && !names.has(who.id)) names.set(who.id, whoName(who));
  return (id) => safe(names.get(id) ?? id.replace(/^(person|agent):/, ''));
}

/** Owners, by name, in the order given. */
export function ownerNames(ids: readonly string[], nameOf: NameOf): string {
  return ids.map(nameOf).join(', ');
}
