/**
 * What a person saw of a record when they approved it: a short mark of its title and field values
 * (what an approval is of). A face gives the mark of the record as it showed it; the store refuses
 * the approval when the record says something else now — an agent's edit between the person's
 * look and their key would otherwise have them approve words they never read. Pure: the screen and
 * the page compute it too. `place`: the state the record was shown in, where a key acts from it (a
 * move): a record moved meanwhile is then not moved on from where it is now.
 */
export function approvalMark(title: string, fields: Readonly<Record<string, string>>, place?: string): string {
  const seen = [title, Object.keys(fields).sort().map((k) => [k, fields[k]])];
  const text = JSON.stringify(place === undefined ? seen : [...seen, place]);
  // FNV-1a over the UTF-16 units, two lanes of 32 bits: not a secret, a fingerprint of what was read.
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c ^ (a >>> 7), 0x01000193) >>> 0;
  }
  return `${a.toString(36)}${b.toString(36)}`;
}
