/**
 * Hostile text for the terminal tests, and the checks of what reached a terminal: every C0 and
 * C1 control, DEL, ESC sequences (CSI, OSC 0/8/52, DCS, SOS/PM/APC, `CSI 6n`, `ESC c`, 8-bit
 * forms), an unterminated OSC, and bidirectional overrides. Each sequence sits between two
 * markers, so that one passing through is caught even where the face writes the same bytes of
 * its own; each payload carries a word that must never be seen.
 */
import type { Store, Who } from '../../src/store/index.js';

/** The sequences, by name. The payload words (PWN…) must never reach a terminal. */
export const SEQUENCES: Readonly<Record<string, string>> = {
  'CSI erase display': '\u001b[2J',
  'CSI cursor report (6n)': '\u001b[6n',
  'CSI device attributes': '\u001b[c',
  'CSI colour': '\u001b[31;1m',
  'CSI cursor home': '\u001b[H',
  'CSI private mode (alt screen)': '\u001b[?1049h',
  'ESC c (full reset)': '\u001bc',
  'ESC 7 / ESC 8': '\u001b7\u001b8',
  'ESC ( 0 (line drawing)': '\u001b(0',
  'OSC 0 title, BEL': '\u001b]0;PWNTITLE\u0007',
  'OSC 2 title, ST': '\u001b]2;PWNTITLE2\u001b\\',
  'OSC 8 link': '\u001b]8;;https://evil.example/PWNLINK\u001b\\click\u001b]8;;\u001b\\',
  'OSC 52 clipboard write': '\u001b]52;c;UFdOQ0xJUA==\u0007',
  'OSC 52 clipboard read': '\u001b]52;c;?\u0007',
  'DCS': '\u001bP1$tPWNDCS\u001b\\',
  'DCS request status': '\u001bP$q"pPWNRQSS\u001b\\',
  'SOS': '\u001bXPWNSOS\u001b\\',
  'PM': '\u001b^PWNPM\u001b\\',
  'APC': '\u001b_PWNAPC\u001b\\',
  '8-bit CSI': '\u009b2J',
  '8-bit CSI 6n': '\u009b6n',
  '8-bit OSC': '\u009d0;PWN8OSC\u0007',
  '8-bit DCS': '\u0090PWN8DCS\u009c',
  'NEL (8-bit newline)': '\u0085',
  'bidi RLO': '\u202e',
  'bidi LRO, LRE, RLE, PDF': '\u202d\u202a\u202b\u202c',
  'bidi isolates': '\u2066\u2067\u2068\u2069',
  'bidi marks': '\u200e\u200f\u061c',
};

/** Every C0 control but newline, DEL, and every C1 control, one by one. */
export const CONTROLS: readonly string[] = [
  ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).filter((c) => c !== '\n'),
  '\u007f',
  ...Array.from({ length: 32 }, (_, i) => String.fromCharCode(0x80 + i)),
];

/** An OSC never ended: it must swallow nothing but itself and what follows it. */
export const UNTERMINATED = '\u001b]0;PWNOPEN';

/** Words of payloads that must never reach a terminal. */
export const PAYLOADS = ['PWN', 'UFdOQ0xJUA', 'evil.example'] as const;

/** A marker pair around the sequence named `n`. */
const marker = (n: number): [string, string] => [`{q${n}`, `${n}q}`];

/** One line of text holding every sequence, each between its markers: for a title or a field. */
export function hostileLine(prefix: string): string {
  return `${prefix} ${Object.values(SEQUENCES).map((seq, n) => { const [a, b] = marker(n); return `${a}${seq}${b}`; }).join(' ')}`;
}

/**
 * The sequences between their markers, cut into pieces of at most `max` characters with
 * `prefix` and a number first: for titles, which are at most 300 characters.
 */
export function hostileChunks(prefix: string, max = 280): string[] {
  const chunks: string[] = [];
  let now = '';
  Object.values(SEQUENCES).forEach((seq, n) => {
    const [a, b] = marker(n);
    const piece = `${a}${seq}${b} `;
    if (now && [...`${prefix} ${chunks.length + 1} ${now}${piece}`].length > max) {
      chunks.push(`${prefix} ${chunks.length + 1} ${now.trimEnd()}`);
      now = '';
    }
    now += piece;
  });
  if (now) chunks.push(`${prefix} ${chunks.length + 1} ${now.trimEnd()}`);
  return chunks;
}

/** Every control character, each between markers, then the unterminated OSC: for a note. */
export function hostileNote(prefix: string): string {
  return `${prefix}\n${CONTROLS.map((c, n) => `<${n}${c}${n}>`).join('')}\nline three ${hostileLine('in a note')}\nlast ${UNTERMINATED}`;
}

/** The escape sequences in `bytes`, each whole (CSI, OSC…, two-byte escapes). */
export function escapes(bytes: string): string[] {
  return bytes.match(/\u001b\[[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]|\u001b[\]PX^_][\s\S]*?(?:\u0007|\u001b\\)|\u001b[\s\S]?/g) ?? [];
}

/** An escape sequence's kind: its numbers left out (a cursor moved 3 rows or 12 is one kind). */
export const kindOf = (seq: string): string => seq.replace(/\d+/g, 'N');

/**
 * What in `bytes` (what a face wrote to a terminal) came from hostile text: an escape sequence
 * whose kind is not among `own` (the face's own, from the same screens with harmless text; SGR
 * styles are always its own), a hostile sequence between its markers, a C0 control but CR and
 * LF, a C1 control, a bidi control, or a payload word.
 */
export function leaks(bytes: string, own: ReadonlySet<string> = new Set(), { payloads = true } = {}): string[] {
  const found: string[] = [];
  for (const seq of new Set(escapes(bytes))) {
    if (own.has(kindOf(seq)) || /^\u001b\[[0-9;]*m$/.test(seq)) continue;
    found.push(`the escape ${JSON.stringify(seq)}`);
  }
  Object.values(SEQUENCES).forEach((seq, n) => {
    const [a] = marker(n);
    if (bytes.includes(`${a}${seq}`)) found.push(`the sequence ${JSON.stringify(seq)} itself`);
  });
  const rest = bytes.replace(/\u001b\[[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]/g, '');
  const c0 = /[\u0000-\u0009\u000b\u000c\u000e-\u001a\u001c-\u001f\u007f]/.exec(rest);
  if (c0) found.push(`a control character ${JSON.stringify(c0[0])} near ${JSON.stringify(rest.slice(Math.max(0, c0.index - 12), c0.index + 12))}`);
  const c1 = /[\u0080-\u009f]/.exec(rest);
  if (c1) found.push(`a C1 control ${JSON.stringify(c1[0])} near ${JSON.stringify(rest.slice(Math.max(0, c1.index - 12), c1.index + 12))}`);
  const bidi = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/.exec(rest);
  if (bidi) found.push(`a bidi control ${JSON.stringify(bidi[0])}`);
  // JSON prints the text as written, its controls \u-escaped: there a payload word is inert text.
  if (payloads) for (const word of PAYLOADS) if (bytes.includes(word)) found.push(`the payload ${word}`);
  return found;
}

/** A short hostile name: owners and person fields are at most about a hundred characters. */
export const HOSTILE_NAME = `x\u001b]0;PWNOWNER\u0007\u001b[6n\u009b2J\u202eqq\u0007${UNTERMINATED}`;

/**
 * The agent's records in `list` (which has a text field Branch and a person field Reviewer): every
 * text an agent can write holding the kit's sequences and controls — titles, a title changed,
 * two notes, both fields, an owner, an attachment's ref and title, a record falling due — or,
 * `calm`, the same records with harmless text of about the same shape. Returns how many texts.
 */
export async function agentRecords(store: Store, agent: Who, list: string, calm = false): Promise<number> {
  const clean = (text: string): string => (calm ? text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '').replace(/PWN|UFdOQ0xJUA|evil\.example/g, 'ok') : text);
  const prefix = calm ? 'Calm' : 'Evil';
  const titles = hostileChunks(prefix).map(clean);
  const first = await store.add(list, {
    title: titles[0]!,
    note: clean(hostileNote(`${prefix} note`)),
    fields: { branch: clean(hostileLine('branch')), reviewer: `person:${clean(HOSTILE_NAME)}` },
    owners: [`person:${clean(HOSTILE_NAME)}`],
  }, agent);
  await store.edit(first.id, { title: titles[1] ?? `${titles[0]!} again` }, agent);
  await store.note(first.id, clean(hostileNote('Second note')), agent);
  await store.attach(first.id, { kind: 'link', ref: clean(hostileLine('ref')), title: titles[titles.length - 1]! }, agent);
  for (const title of titles.slice(1)) await store.add(list, { title: `More ${title}` }, agent);
  await store.add(list, { title: `Due ${titles[0]!}`, due: '2001-01-01' }, agent);
  // Titles (each record's, the edited one, the attachment's), two notes, two fields, an owner, a ref.
  return titles.length * 2 + 1 + 2 + 2 + 1 + 1 + 1;
}

/** How many hostile things one record of this kit carries: sequences, controls, the open OSC. */
export const ATTACKS_PER_TEXT = Object.keys(SEQUENCES).length + CONTROLS.length + 1;
