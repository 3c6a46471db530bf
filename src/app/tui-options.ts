/**
 * `binder tui` / `binder serve` options, read from the words after the verb. Pure: it reads no
 * file and starts nothing; a word it does not know is a sentence back, never a guess.
 */
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
  help: boolean;
  /** --http and its companions, as given (src/http/plan.ts reads them). */
  http: HttpFlags;
}

export const USAGE = `Usage: binder tui [--store DIR|URL] [--side FOLDER=NAME]... [--lang en|fr] [--as NAME] [--no-mouse]
       [--http [HOST:]PORT [--tls-cert FILE --tls-key FILE] [--behind-proxy] [--allow-host NAME]... [--public-url URL] [--rate N]
        [--oidc-issuer URL --oidc-client-id ID [--oidc-client-secret-file FILE] [--oidc-org-claim NAME]
         [--oidc-allow-org ORG]... [--oidc-audience AUD]]]

The person's screen, which keeps the binder at the same time (it answers the agents'
folders while it runs). Without --side, the folders registered in the store are read,
or ./.binder as "Agent" when there is none. --no-mouse leaves clicks to the
terminal (to select text). Quit with q; Ctrl-Z suspends. With --http it answers agents
over HTTP too (MCP at /mcp, REST at /api; docs/http.md).
`;

/** The screen's own options (the HTTP face's are added as serve's are), for the shell's completion. */
export const TUI_OPTIONS = ['--store <DIR|URL>', '--side <FOLDER=NAME>', '--lang <LANG>', '--as <NAME>', '--no-mouse'] as const;

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
      case '--http': {
        const next = eq > 0 ? word.slice(eq + 1) : words[i + 1];
        if (eq < 0 && next !== undefined && !next.startsWith('--')) i++;
        o.http.http = next !== undefined && (eq > 0 || !next.startsWith('--')) ? next : true;
        break;
      }
      case '--tls-cert': case '--tls-key': case '--allow-host': case '--rate': case '--public-url': {
        const v = value();
        if (!v) return { problem: `${name} takes a value.` };
        if (name === '--tls-cert') o.http.tlsCert = v;
        else if (name === '--tls-key') o.http.tlsKey = v;
        else if (name === '--rate') o.http.rate = v;
        else if (name === '--public-url') o.http.publicUrl = v;
        else o.http.allowHost = [...(o.http.allowHost ?? []), v];
        break;
      }
      case '--behind-proxy':
        o.http.behindProxy = true;
        break;
      case '--oidc-issuer': case '--oidc-client-id': case '--oidc-client-secret-file': case '--oidc-org-claim': case '--oidc-allow-org': case '--oidc-audience': {
        const v = value();
        if (!v) return { problem: `${name} takes a value.` };
        if (name === '--oidc-issuer') o.http.oidcIssuer = v;
        else if (name === '--oidc-client-id') o.http.oidcClientId = v;
        else if (name === '--oidc-client-secret-file') o.http.oidcClientSecretFile = v;
        else if (name === '--oidc-org-claim') o.http.oidcOrgClaim = v;
        else if (name === '--oidc-audience') o.http.oidcAudience = v;
        else o.http.oidcAllowOrg = [...(o.http.oidcAllowOrg ?? []), v];
        break;
      }
      case '--help': case '-h':
        o.help = true;
        break;
      default:
        return { problem: `binder tui does not know "${word.replace(/[^\x20-\x7e]/g, '?')}": binder tui --help says what it takes.` };
    }
  }
  return o;
}
