// bench/postgres-page: what each part of a record's page costs PostgreSQL itself. The statement is
// the one a keeper of this build sends for `GET /api/get` (taken from the server's own log while a
// keeper answers one), run by pgbench alone (one client, prepared, the record picked at random),
// whole and each time without one of its parts; a part's cost is the whole's time less the time
// without it. No Binder code runs while it is measured: this is the database's share of a read,
// and the least a page of these parts can cost here. Rounds alternate the variants; the first is
// thrown away (warm-up). With --before DIST_BIN (an earlier build's dist/bin/binder.js), that
// build's whole statement is measured beside this one's, on the same database. A part this build's
// statement does not hold is left out. Figures, not tests; pgbench comes with PostgreSQL's server.
//   node bench/postgres-page.mjs [--records 10000] [--seconds 4] [--rounds 4] [--before DIST_BIN]
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { fillPostgres } from './fill.mjs';
import { ROOT, load, machine, median, medianRatio, option, round, serveHttp, tempDir } from './lib.mjs';

const RECORDS = Number(option('--records', '10000'));
const SECONDS = option('--seconds', '4');
const ROUNDS = Number(option('--rounds', '4'));
const BEFORE = option('--before', '');
/** The page's parts, each a column of the record's statement (`(…) AS name`). */
const PARTS = [
  ['the links, four ways', ['part_links']],
  ['the notes', ['part_notes']],
  ['the history', ['part_log']],
  ['the attachments', ['part_attached']],
  ['the counts of notes and attachments', ['note_count', 'attach_count']],
  ['the needs not done', ['blocked_by']],
  ['the asker\'s access', ['list_level']],
];

/** The statement a keeper (`bin`) sends for a record's page, and its agent, from the server's log. */
async function pageStatement(cluster, url, token, bin) {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query("ALTER SYSTEM SET log_statement = 'all'");
  await admin.query('SELECT pg_reload_conf()');
  const keeper = await serveHttp(url, bin ? { bin } : {});
  try {
    const from = readFileSync(cluster.logFile, 'utf8').length;
    const answer = await fetch(`${keeper.url.origin}/api/get?id=1`, { headers: { authorization: `Bearer ${token}` } });
    if (!answer.ok) throw new Error(`the keeper answered ${answer.status}`);
    // Each logged line starts with its time; a statement's lines after its first start with a tab.
    const lines = readFileSync(cluster.logFile, 'utf8').slice(from).split('\n');
    const at = lines.findIndex((l) => /LOG: {2}execute \S+: SELECT r\.\*/.test(l) && lines.slice(lines.indexOf(l)).join('\n').includes('part_notes'));
    if (at < 0) throw new Error('no statement of a record\'s page was logged');
    let end = at + 1;
    while (lines[end]?.startsWith('\t')) end++;
    const sql = [lines[at].replace(/.*LOG: {2}execute \S+: /, ''), ...lines.slice(at + 1, end)].join('\n');
    const params = /DETAIL: {2}parameters: (.*)/.exec(lines[end] ?? '')?.[1] ?? '';
    const agent = /\$1 = '([^']*)'/.exec(params)?.[1];
    if (!agent) throw new Error(`the page's parameters were not logged as expected: ${params}`);
    return { sql, agent };
  } finally {
    await keeper.stop();
    await admin.query('ALTER SYSTEM RESET log_statement');
    await admin.query('SELECT pg_reload_conf()');
    await admin.end();
  }
}

/** `sql` without the columns named `names` (each `(…) AS name`, with the comma before it), or null if it has not one of them. */
function without(sql, names) {
  let out = sql;
  for (const name of names) {
    const end = out.search(new RegExp(`\\) AS ${name}\\b`));
    if (end < 0) return null;
    let depth = 0;
    let start = end;
    for (; start >= 0; start--) {
      if (out[start] === ')') depth++;
      if (out[start] === '(' && --depth === 0) break;
    }
    const comma = out.lastIndexOf(',', start);
    out = out.slice(0, comma) + out.slice(end + `) AS ${name}`.length);
  }
  return out;
}

/**
 * A pgbench script of `sql`: the record a random one of RECORDS, the agent written in. pgbench
 * reads `:name` as a variable anywhere but `::`, in quotes too: the agent's colon is made apart.
 */
function script(sql, agent) {
  if (/\$[3-9]/.test(sql)) throw new Error('the page\'s statement takes more parameters than the agent and the record');
  const literal = `('${agent.replace(/'/g, "''").replace(/:/g, "' || chr(58) || '")}')`;
  return `\\set id random(1, ${RECORDS})\n${sql.replaceAll('$1', literal).replaceAll('$2', 'CAST(:id AS integer)')};\n`;
}

/** Statements a second by pgbench: one client, prepared, for SECONDS. */
function rate(env, bin, file) {
  const run = spawnSync(join(bin, 'pgbench'), ['-n', '-M', 'prepared', '-c', '1', '-T', SECONDS, '-f', file], { env, encoding: 'utf8' });
  const tps = Number(/tps = ([\d.]+)/.exec(run.stdout)?.[1]);
  if (!tps) throw new Error(`pgbench failed: ${run.stderr.trim() || run.stdout.trim()}`);
  return tps;
}

const filled = await fillPostgres('page', RECORDS);
if (filled) {
  const { cluster, url, token } = filled;
  const { postgresBin } = await import(pathToFileURL(join(ROOT, 'build', 'test', 'helpers', 'postgres.js')).href);
  try {
    const { sql, agent } = await pageStatement(cluster, url, token);
    const before = BEFORE ? (await pageStatement(cluster, url, token, BEFORE)).sql : null;
    const at = new URL(url);
    const env = { ...process.env, PGHOST: at.searchParams.get('host') ?? at.hostname, PGUSER: decodeURIComponent(at.username), PGDATABASE: at.pathname.slice(1) };
    const dir = tempDir('binder-page-');
    const variants = [['the whole page', sql], ...(before ? [['the whole page, the build before', before]] : []),
      ...PARTS.map(([name, columns]) => [`without ${name}`, without(sql, columns)]).filter(([, text]) => text !== null)];
    const files = variants.map(([, text], i) => {
      const file = join(dir, `${i}.sql`);
      writeFileSync(file, script(text, agent));
      return file;
    });
    const times = variants.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      files.forEach((file, i) => {
        const tps = rate(env, postgresBin(), file);
        if (round > 0) times[i].push(1e6 / tps);
      });
    }
    const whole = median(times[0]);
    process.stdout.write(`bench/postgres-page on ${machine()}; load ${load()}\n`
      + `a record's page as one statement, by pgbench alone (one client, prepared), ${RECORDS.toLocaleString('en')} records, median of ${ROUNDS - 1} rounds of ${SECONDS} s:\n`
      + '| statement | µs a page | the part\'s cost |\n|---|---|---|\n');
    variants.forEach(([name], i) => {
      const t = median(times[i]);
      const part = name.startsWith('without') ? `${Math.round(whole - t)} µs (${Math.round((whole - t) / whole * 100)} %)` : '—';
      process.stdout.write(`| ${name} | ${Math.round(t)} | ${part} |\n`);
    });
    if (before) process.stdout.write(`this build's page takes ${round(medianRatio(times[0], times[1]), 2)}× the time of the build before's (median of the rounds' ratios)\n`);
  } finally {
    await cluster.stop();
  }
}
