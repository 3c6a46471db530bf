/**
 * The one way a line reaches the keeper's log, whichever face wrote it (the keeper, the HTTP face,
 * `binder serve`, the screen's log, `binder admin`'s diagnostics): made safe for a terminal, and
 * scrubbed of anything shaped like a secret. An agent's token is written as its prefix (what
 * `binder admin token list` shows, enough to revoke it); a provider's token (a JWT), a value named
 * as a secret (`login=`, `key=`, a cookie, `password=`, `Bearer …`) and any long random string
 * (a login link's key, a session's secret) as `…`. Callers name secrets by their prefix already:
 * this is the last guard, for what one of them forgot. It must never let a whole secret through,
 * nor leave a line of someone's text unmade safe.
 */
import { safeAnswer } from './terminal-safe.js';

/** An agent's token, or enough of one to matter: `binder_`, its 8 shown characters, and more. */
const AGENT_TOKEN = /binder_([A-Za-z0-9_-]{8})([A-Za-z0-9_-]{4,})/g;
/** A JSON Web Token (a provider's access or ID token): its three parts. */
const JWT = /eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*\.[A-Za-z0-9_-]*/g;
/** A secret said by its name: a login link's key (`#login=`), a cookie, a page key, a password, a code; a bearer's token. */
const NAMED = /(\b[\w-]*(?:key|login|cookie|secret|token|password|session|signin|code)(?:=|:[ \t]*)|\bbearer[ \t]+)(?!binder_[A-Za-z0-9_-]{8}…)([^\s&;#,"'()]{6,})/gi;
/**
 * A run of 32 or more characters of base64url with capitals and small letters mixed: a secret
 * drawn at random (32 bytes are 43 of them). A word, a slug, a hex hash or a folder's name is not
 * one, or is cut by other characters.
 */
const RANDOM_RUN = /(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{32,}(?![A-Za-z0-9_-])/g;
const MIXED = (run: string): boolean => /[A-Z]/.test(run) && /[a-z]/.test(run);

/** `text` with every secret-shaped run taken out: a token's prefix kept, anything else as `…`. */
export function scrubSecrets(text: string): string {
  return text
    .replace(AGENT_TOKEN, (whole, shown: string, rest: string) => (MIXED(shown + rest) ? `binder_${shown}…` : whole))
    .replace(JWT, '…')
    .replace(NAMED, (_whole, name: string) => `${name}…`)
    .replace(RANDOM_RUN, (run) => (MIXED(run) ? '…' : run));
}

/** A log line as it is written: terminal-safe, scrubbed. */
export const logLine = (text: string): string => scrubSecrets(safeAnswer(String(text)));

/** Wraps a writer of log lines so that whatever it is given is written as `logLine` makes it. */
export const scrubbed = (write: (line: string) => void): ((line: string) => void) => (line) => write(logLine(line));

/** The keeper's log on stderr: one line each, made as above. */
export const toStderr = (line: string): void => void process.stderr.write(`${logLine(line)}\n`);

/**
 * A line said once for something that may come in numbers (clients cutting their requests short):
 * the first is written at once, the others in the next `windowMs` are counted and said as one line
 * when it ends. Never a line per occurrence: one client cannot flood the log.
 */
export function countedLine(write: (line: string) => void, counted: (n: number) => string, windowMs = 60_000): (line: string) => void {
  let quietUntil = 0;
  let more = 0;
  let timer: NodeJS.Timeout | null = null;
  const flush = (): void => {
    timer = null;
    if (more > 0) write(counted(more));
    more = 0;
  };
  return (line) => {
    const now = Date.now();
    if (now >= quietUntil && timer === null) {
      quietUntil = now + windowMs;
      write(line);
      return;
    }
    more += 1;
    timer ??= setTimeout(flush, Math.max(0, quietUntil - now));
    timer.unref?.();
  };
}
