/**
 * An ask's arguments as every keeper reads them, from what a face was given: only the
 * operation's own arguments, nothing undefined, `none` as the protocol says it (no owners: [],
 * no due date: ''). It never checks a value: that is the keeper's to do, and to explain.
 */
import type { OpSpec } from '../keeper/operations.js';

export function askArgs(op: OpSpec, given: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(op.args)) {
    if (!Object.prototype.hasOwnProperty.call(given, name)) continue;
    const value = given[name];
    if (value === undefined) continue;
    switch (spec.kind) {
      case 'owners': {
        const owners = Array.isArray(value) ? value : [value];
        args[name] = owners.filter((owner) => owner !== 'none' && owner !== '');
        break;
      }
      case 'due':
        args[name] = value === 'none' ? '' : value;
        break;
      case 'text': case 'words': case 'record': case 'fields': case 'texts':
      case 'choice': case 'flag': case 'number':
        args[name] = value;
        break;
      default: {
        const never: never = spec.kind;
        throw new Error(`unknown argument kind ${String(never)}`);
      }
    }
  }
  return args;
}
