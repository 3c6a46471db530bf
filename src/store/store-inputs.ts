/**
 * What the store's operations are asked with, beyond `who`: a record's fields as given, a list's
 * new shape, a show's page, and the agents' folders as registered.
 */
import type { FieldType, View } from './types.js';

export interface ShowOptions {
  /** A state's name or id. */
  state?: string;
  /** Only records the asker owns. */
  mine?: boolean;
  /** Archived records instead of the live ones. */
  archived?: boolean;
  /** Only the records this query of the query language finds (query.ts), e.g. `label:bug owner:me`. */
  query?: string;
  /** At most this many records per state (default 50). */
  limit?: number;
  /** Skip this many in each state (for paging). */
  offset?: number;
}

export interface AddInput {
  title: string;
  state?: string;
  /** By field name or id. */
  fields?: Record<string, string>;
  /** Ids, or `me` for the asker. */
  owners?: string[];
  /** A date (`2026-11-04`), a date-time (`2026-11-04 09:00`), or empty for none. */
  due?: string;
  note?: string;
  /** The record it goes under: a number (`12`, `#12`). */
  parent?: number | string;
  /** Labels for the list's labels field: `bug`; `+ui` and `-wontfix` add and take away. */
  labels?: string[];
}

export interface EditInput {
  title?: string;
  /** By field name or id; an empty value clears the field. */
  fields?: Record<string, string>;
  /** Replaces the owners; `[]` for nobody. */
  owners?: string[];
  /** Empty string or `none` clears it. */
  due?: string;
  /** The record it goes under, or `none` to take it from under its parent. */
  parent?: number | string;
  /** The labels field's labels: bare words replace them, `+ui` adds, `-wontfix` takes away. */
  labels?: string[];
}

export interface StateInput {
  /** The id of an existing state being kept (renamed or moved); absent for a new one. */
  id?: string;
  name: string;
  gate?: boolean;
}

export interface FieldInput {
  id?: string;
  name: string;
  type: FieldType;
  choices?: string[];
}

export interface ListPatch {
  title?: string;
  view?: View;
  /** The whole new order of states. A state left out is removed (refused while records are in it). */
  states?: StateInput[];
  /** The whole new set of fields. A field left out is removed, with its values. */
  fields?: FieldInput[];
  /** A parent is ready only once its children are done. */
  childrenFirst?: boolean;
}

export interface TemplateSummary {
  id: string;
  title: string;
  describe: string;
}

export interface Side {
  name: string;
  /** `agent:<slug of name>`. */
  agent: string;
  dir: string;
  created: string;
  /** The directory registered (`dev:ino:birth`), or null until a keeper first sees it (folders registered before bindings). */
  bound: string | null;
  /** Set on the answer to registering a folder already registered under that name: bound again. */
  again?: true;
}
