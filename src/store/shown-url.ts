/**
 * A database URL as it may be shown — in a start line, an error, `binder admin`'s diagnostics:
 * built from an allow-list of its parts (the user, the host, the port, the database, and the
 * options known to hold no secret), every other option's value shown as `…`. A password, in the
 * URL's user part or in its query (`?password=`, a form libpq documents), never passes; nor does
 * an option this list does not know, whatever it holds.
 */

/** libpq's options that say where and how to connect, and hold no secret. */
const SHOWN_OPTIONS = new Set([
  'host', 'hostaddr', 'port', 'dbname', 'user', 'application_name', 'fallback_application_name', 'connect_timeout',
  'client_encoding', 'sslmode', 'sslnegotiation', 'sslcompression', 'sslrootcert', 'sslcrl', 'sslcrldir', 'sslsni',
  'requiressl', 'gssencmode', 'krbsrvname', 'gsslib', 'target_session_attrs', 'load_balance_hosts',
  'keepalives', 'keepalives_idle', 'keepalives_interval', 'keepalives_count', 'tcp_user_timeout',
  'channel_binding', 'require_auth', 'ssl_min_protocol_version', 'ssl_max_protocol_version', 'replication', 'schema',
]);

const HIDDEN = '…';

/** `postgres://ann:pw@db:5432/binder?password=x&sslmode=require` → `postgres://ann@db:5432/binder?password=…&sslmode=require`. */
export function shownStoreUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'postgres://…';
  }
  if (!/^postgres(ql)?:$/i.test(u.protocol)) return 'postgres://…';
  const user = u.username ? `${u.username}@` : '';
  const query = [...u.searchParams].map(([name, value]) => {
    const shown = SHOWN_OPTIONS.has(name.toLowerCase()) ? value : HIDDEN;
    return `${encodeURIComponent(name)}=${shown === HIDDEN ? HIDDEN : encodeURIComponent(shown)}`;
  });
  return `${u.protocol}//${user}${u.host}${u.pathname}${query.length ? `?${query.join('&')}` : ''}`;
}
