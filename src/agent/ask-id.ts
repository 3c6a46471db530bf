/**
 * A new ask's id: a random UUID (v4) from the system's random source. Read from /dev/urandom
 * where there is one, because loading node:crypto costs the agent's command several
 * milliseconds of start-up on every call. An id must never repeat: it never falls back to
 * anything weaker than the system's random source.
 */
import { closeSync, openSync, readSync } from 'node:fs';

function randomBytes(): Uint8Array | null {
  let fd: number;
  try {
    fd = openSync('/dev/urandom', 'r');
  } catch {
    return null;
  }
  try {
    const bytes = new Uint8Array(16);
    for (let got = 0; got < bytes.length; ) {
      const n = readSync(fd, bytes, got, bytes.length - got, null);
      if (n <= 0) return null;
      got += n;
    }
    return bytes;
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/** A v4 UUID, as `crypto.randomUUID` makes. */
export function newAskId(): string {
  const bytes = randomBytes();
  if (!bytes) return globalThis.crypto.randomUUID();
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
