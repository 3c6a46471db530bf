/**
 * The rows of the screens that manage the binder rather than show records: the agents and
 * their access to a list, the agent folders, a list's title, view, states and fields. Pure.
 */
import type { FolderStatus } from '../keeper/keeper-types.js';
import type { Access, List, Side } from '../store/index.js';
import type { Words } from './words.js';

export interface AgentRow {
  agent: string;
  name: string;
  dir: string | null;
  access: Access | 'none';
}

/** Every agent known (kept folders, registered sides, and any already granted), with its access. */
export function agentRows(list: List, folders: readonly FolderStatus[], sides: readonly Side[]): AgentRow[] {
  const rows = new Map<string, AgentRow>();
  const add = (agent: string, name: string, dir: string | null) => {
    if (!rows.has(agent)) rows.set(agent, { agent, name, dir, access: list.access[agent] ?? 'none' });
  };
  for (const f of folders) add(f.agent, f.name, f.dir);
  for (const s of sides) add(s.agent, s.name, s.dir);
  for (const agent of Object.keys(list.access)) add(agent, agent.replace(/^agent:/, ''), null);
  return [...rows.values()];
}

export const ACCESS_ORDER = ['none', 'read', 'write'] as const;

/** One step less or more access, stopping at none and write. */
export function nextAccess(access: AgentRow['access'], delta: number): AgentRow['access'] {
  const at = ACCESS_ORDER.indexOf(access) + delta;
  return ACCESS_ORDER[Math.max(0, Math.min(ACCESS_ORDER.length - 1, at))]!;
}

export interface SideRow {
  name: string;
  agent: string;
  dir: string;
  /** Registered in the store (so it can be removed here), or given on the command line. */
  registered: boolean;
  folder: FolderStatus | null;
  /** Its folder belongs to the keeper's own OS user: the agent runs as the person (keeper's folder-exposure). */
  keeperUser?: boolean;
  /** Others than its owner and group may enter or list its folder. */
  othersRead?: boolean;
}

/** What a person is told of the folders, in one line, the worst first: an agent that runs as them, else a folder open to others. */
export function sideWarning(rows: readonly Pick<SideRow, 'name' | 'dir' | 'keeperUser' | 'othersRead'>[], words: Words): string | null {
  const asYou = rows.filter((r) => r.keeperUser).map((r) => r.name);
  if (asYou.length) return words.sides.runsAsYou(asYou);
  const open = rows.find((r) => r.othersRead);
  return open ? words.sides.othersRead(open.name, open.dir) : null;
}

export function sideRows(folders: readonly FolderStatus[], sides: readonly Side[]): SideRow[] {
  const rows: SideRow[] = folders.map((f) => ({
    name: f.name, agent: f.agent, dir: f.dir, registered: sides.some((s) => s.dir === f.dir), folder: f,
  }));
  for (const s of sides) {
    if (!rows.some((r) => r.dir === s.dir)) rows.push({ name: s.name, agent: s.agent, dir: s.dir, registered: true, folder: null });
  }
  return rows;
}

export type EditorRow =
  | { kind: 'title' }
  | { kind: 'view' }
  /** Whether a parent is ready only once its children are done. */
  | { kind: 'children'; on: boolean }
  | { kind: 'state'; id: string; name: string; gate: boolean; position: number }
  | { kind: 'field'; id: string; name: string; type: string };

export function editorRows(list: List): EditorRow[] {
  return [
    { kind: 'title' },
    { kind: 'view' },
    { kind: 'children', on: list.childrenFirst === true },
    ...list.states.map((s, i): EditorRow => ({ kind: 'state', id: s.id, name: s.name, gate: s.gate, position: i + 1 })),
    ...list.fields.map((f): EditorRow => ({ kind: 'field', id: f.id, name: f.name, type: f.type })),
  ];
}
