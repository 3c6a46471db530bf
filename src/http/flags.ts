/**
 * `--http` and its companions, declared once: `binder serve` makes its commander options of them
 * (start.ts), `binder tui` reads its command line and says its help with them (src/app), a
 * person's configuration file is checked against them (src/app/config.ts), and the shell's
 * completion follows. Plain data, loaded by the screen's first frame: it must import nothing.
 */

/** One option: its name without `--`, the value it takes as commander writes it, what it does. */
export interface HttpFlag {
  name: string;
  /** `<file>` a value it needs, `[address]` one it may take; none for a switch. */
  value?: string;
  /** Given again, it adds to a list. */
  repeatable?: boolean;
  help: string;
}

export const HTTP_FLAGS = [
  { name: 'http', value: '[address]', help: 'answer over HTTP too, at [HOST:]PORT (127.0.0.1:4180 by default): MCP at /mcp, REST at /api' },
  { name: 'tls-cert', value: '<file>', help: 'with --http: speak TLS with this certificate (PEM)' },
  { name: 'tls-key', value: '<file>', help: 'with --http: the certificate\'s private key (PEM)' },
  { name: 'behind-proxy', help: 'with --http: a proxy in front speaks TLS; believe its X-Forwarded-* headers' },
  { name: 'allow-host', value: '<name>', repeatable: true, help: 'with --http: a name the server is reached by (repeatable)' },
  { name: 'public-url', value: '<url>', help: 'with --http: the address people reach it by through a proxy (https://binder.example), for links and sign-in' },
  { name: 'rate', value: '<n>', help: 'with --http: requests a second per token (200, bursts of 5×; or N/BURST)' },
  { name: 'oidc-issuer', value: '<url>', help: 'with --http: people sign in through this OpenID Connect provider (no login links then)' },
  { name: 'oidc-client-id', value: '<id>', help: 'with --oidc-issuer: this binder\'s client id at the provider' },
  { name: 'oidc-client-secret-file', value: '<file>', help: 'with --oidc-issuer: the client secret, in a file only you can read (else $BINDER_OIDC_CLIENT_SECRET)' },
  { name: 'oidc-org-claim', value: '<name>', help: 'with --oidc-issuer: the claim naming a person\'s organisation (else their verified e-mail\'s domain)' },
  { name: 'oidc-allow-org', value: '<org>', repeatable: true, help: 'with --oidc-issuer: an organisation that may sign in (repeatable; none: any)' },
  { name: 'oidc-audience', value: '<aud>', help: 'with --oidc-issuer: the audience a provider\'s access token must name (the client id by default)' },
] as const satisfies readonly HttpFlag[];

/** `allow-host` → `allowHost`, as a type. */
type Attribute<S extends string> = S extends `${infer A}-${infer B}` ? `${A}${Capitalize<Attribute<B>>}` : S;
type ValueOf<F extends HttpFlag> = F extends { value: `[${string}` } ? string | boolean
  : F extends { repeatable: true } ? string[] : F extends { value: string } ? string : boolean;

/**
 * The options as given, by the name commander keeps each under (`--allow-host` → `allowHost`):
 * `--http` alone is true, with a value `[HOST:]PORT` (or HOST alone).
 */
export type HttpFlagValues = { [F in (typeof HTTP_FLAGS)[number] as Attribute<F['name']>]?: ValueOf<F> };

/** What an option holds once read: a switch, a text, texts (repeatable), or `--http`'s text or switch. */
export type FlagKind = 'flag' | 'text' | 'texts' | 'text-or-flag';

export function kindOf(flag: HttpFlag): FlagKind {
  if (!flag.value) return 'flag';
  if (flag.value.startsWith('[')) return 'text-or-flag';
  return flag.repeatable ? 'texts' : 'text';
}

/** The option as commander declares it: `--tls-cert <file>`. */
export const flagsOf = (flag: HttpFlag): string => `--${flag.name}${flag.value ? ` ${flag.value}` : ''}`;

/** The name a value is kept under, as commander names it: `allow-host` → `allowHost`. */
export const attributeOf = (name: string): string => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The option named `--name`, or undefined. */
export const httpFlag = (option: string): HttpFlag | undefined =>
  option.startsWith('--') ? (HTTP_FLAGS as readonly HttpFlag[]).find((f) => f.name === option.slice(2)) : undefined;
