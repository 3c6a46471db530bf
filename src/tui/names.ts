/**
 * People and agents by the names people know them by, everywhere on the screen: an owner's id
 * (`agent:claude`, `person:ann`) becomes the name its folder was registered under, or the name
 * the binder last saw it act under, else the id without its kind. Pure; the names it gives are
 * made terminal-safe. It never shows a kind prefix a person did not type.
 */
import { safe } from './format.js';

export type NameOf = (id: string) => string;

/** Names from everyone known (folders, registered sides, the person, whoever acted on a record). */
export function namesFrom(known: Iterable<{ id: string; name: string }>): NameOf {
  const names = new Map<string, string>();
  for (const { id, name } of known) if (name && !names.has(id)) names.set(id, name);
  return (id) => safe(names.get(id) ?? id.replace(/^(person|agent):/, ''));
}

/** Owners, by name, in the order given. */
export function ownerNames(ids: readonly string[], nameOf: NameOf): string {
  return ids.map(nameOf).join(', ');
}
