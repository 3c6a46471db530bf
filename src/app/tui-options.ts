/**
 * `binder tui` / `binder serve` options, read from the words after the verb. Pure: it reads no
 * file and starts nothing; a word it does not know is a sentence back, never a guess.
 */
import { attributeOf, flagsOf, HTTP_FLAGS, httpFlag, kindOf, type HttpFlag } from '../http/flags.js';
import type { HttpFlags } from '../http/plan.js';
import type { Lang } from '../person/words.js';

export interface TuiOptions {
  store?: string;
  /** `FOLDER=NAME`, as given. */
  sides: string[];
  lang?: Lang;
  /** The person's name. */
  as?: string;
  /** Clicks and the wheel (off with --no-mouse, to leave the terminal's own selection alone). */
  mouse: boolean;
  /** The terminal's notification of work that comes to the person (off with --no-notify, or `notify = false` in the configuration file); unset: on. */
  notify?: boolean;
  help: boolean;
  /** --http and its companions, as given (src/http/plan.ts reads them). */
  http: HttpFlags;
}

const HTTP_HELP = (() => {
  const width = Math.max(...HTTP_FLAGS.map((f) => flagsOf(f).length)) + 2;
  return HTTP_FLAGS.map((f) => `  ${flagsOf(f).padEnd(width)}${f.help}`).join('\n');
})();

export const USAGE = `Usage: binder tui [--store DIR|URL] [--side FOLDER=NAME]... [--lang en|fr] [--as NAME] [--no-mouse]
       [--no-notify] [--http [HOST:]PORT [HTTP OPTIONS]]

The person's screen, which keeps the binder at the same time (it answers the agents'
folders while it runs). Without --side, the folders registered in the store are read,
or ./.binder as "Agent" when there is none. --no-mouse leaves clicks to the
terminal (to select text). A record come to wait for your approval, or a note naming
you (@NAME), is said in the status line and, where the terminal shows them (iTerm2, WezTerm,
kitty, foot, ghostty, rxvt, Windows Terminal), as its notification; --no-notify turns that
off (or notify = false in the configuration file). Quit with q; Ctrl-Z suspends. With --http it answers agents
over HTTP too (MCP at /mcp, REST at /api; docs/http.md).

HTTP options (as binder serve takes them):
${HTTP_HELP}
`;

/** The screen's own options (the HTTP face's are added as serve's are), for the shell's completion. */
export const TUI_OPTIONS = ['--store <DIR|URL>', '--side <FOLDER=NAME>', '--lang <LANG>', '--as <NAME>', '--no-mouse', '--no-notify'] as const;

export function readOptions(argv: readonly string[]): TuiOptions | { problem: string } {
  const o: TuiOptions = { sides: [], mouse: true, help: false, http: {} };
  const words = argv[0] === 'tui' || argv[0] === 'serve' ? argv.slice(1) : [...argv];
  for (let i = 0; i < words.length; i++) {
    const word = words[i]!;
    const eq = word.startsWith('--') ? word.indexOf('=') : -1;
    const name = eq > 0 ? word.slice(0, eq) : word;
    const value = (): string | undefined => (eq > 0 ? word.slice(eq + 1) : words[++i]);
    switch (name) {
      case '--store': {
        const v = value();
        if (!v) return { problem: '--store takes a folder or a postgres:// URL.' };
        o.store = v;
        break;
      }
      case '--side': {
        const v = value();
        if (!v) return { problem: '--side takes FOLDER=NAME, e.g. --side ./.binder=Claude.' };
        o.sides.push(v);
        break;
      }
      case '--lang': {
        const v = value();
        if (v !== 'en' && v !== 'fr') return { problem: '--lang takes en or fr.' };
        o.lang = v;
        break;
      }
      case '--as': {
        const v = value();
        if (!v?.trim()) return { problem: '--as takes the name of the person at the screen.' };
        o.as = v.trim();
        break;
      }
      case '--no-mouse':
        o.mouse = false;
        break;
      case '--no-notify':
        o.notify = false;
        break;
      case '--help': case '-h':
        o.help = true;
        break;
      default: {
        const flag = httpFlag(name);
        if (!flag) return { problem: `binder tui does not know "${word.replace(/[^\x20-\x7e]/g, '?')}": binder tui --help says what it takes.` };
        const read = readHttpFlag(flag, eq > 0 ? word.slice(eq + 1) : undefined, words[i + 1], o.http);
        if (read === null) return { problem: `${name} takes a value.` };
        i += read;
      }
    }
  }
  return o;
}

/**
 * Reads one of the HTTP face's options into `into`, given its value after `=` (`given`) or the
 * word after it (`next`): how many words it took beyond its own, or null when it lacks its value.
 * `--http` takes the next word as its address unless that word is another option.
 */
function readHttpFlag(flag: HttpFlag, given: string | undefined, next: string | undefined, into: HttpFlags): number | null {
  const kept = into as Record<string, string | boolean | string[] | undefined>;
  const key = attributeOf(flag.name);
  const kind = kindOf(flag);
  switch (kind) {
    case 'flag':
      kept[key] = true;
      return 0;
    case 'text-or-flag': {
      const takesNext = given === undefined && next !== undefined && !next.startsWith('--');
      kept[key] = given ?? (takesNext ? next : true);
      return takesNext ? 1 : 0;
    }
    case 'text': case 'texts': {
      const value = given ?? next;
      if (!value) return null;
      kept[key] = kind === 'texts' ? [...(kept[key] as string[] | undefined ?? []), value] : value;
      return given === undefined ? 1 : 0;
    }
    default: {
      const never: never = kind;
      throw new Error(`unknown kind of option ${String(never)}`);
    }
  }
}
