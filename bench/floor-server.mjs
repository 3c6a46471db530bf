// A bare HTTP server for bench/postgres-floor: no Binder code between the request and the
// database. Each POST is a durable note on a binder's own PostgreSQL schema, made with the
// statements a keeper sends for it and nothing else (no rules, no batching, no search of words):
//   node bench/floor-server.mjs DATABASE_URL MODE
// MODE:
//   as-sent   the keeper's four round trips: the token's look; BEGIN with the ledger's look, a
//             savepoint and the record with its list and the asker's access; the note with the
//             record's time; the words for search, the history row, the ledger's row and COMMIT.
//   one       the token's look, then the whole change as one statement (one round trip).
//   no-token  the change as one statement alone: the least a durable change can cost here.
//   read      a GET: the record read by one statement alone (its row, list and the asker's
//             access), no token looked at: the least a read of a record can cost here.
//   read-page a GET: the record's page (what a keeper answers a `get` with: the record, its
//             notes, history, attachments and links) read by one statement alone, no token looked
//             at: the least a read of a record's page can cost here.
//   read-as-sent  a GET as a keeper read a record's page before it was one statement: in one
//             write, BEGIN (repeatable read, read only), the token's look, the notes, history,
//             attachments, links and the record; then a COMMIT not waited for.
//   read-whole    the same page as a keeper reads it now: the token's look and one statement, the
//             parts as JSON columns of the record's, in one write and no transaction.
//   read-carried  the page with the token's look as one of its columns: one statement, one
//             write, no transaction.
//   hello     a GET answered with a fixed JSON of 1.2 KB (about a record's page) by `node:http`
//             alone: no database, no token, what the HTTP around a read costs at the least.
//   two       the note in two round trips through `pg`'s pipeline mode: BEGIN, the token's look,
//             the ledger's look, the record and the note's number in one write; then the note,
//             the record's time, the words, the history row, the ledger's row and COMMIT in one.
//             The socket is corked for each trip, as the keeper's engine does: pg's pipeline mode
//             alone makes a write per statement (12 system calls for the note, seen with strace).
//   two-js    the same statements in the same two round trips through the `postgres` package
//             (postgres.js): on a reserved connection, each statement sent without waiting.
//             Its own `sql.begin` waits for BEGIN and for the callback before COMMIT (two round
//             trips more), so it is not used. Needs `postgres` where BINDER_POSTGRES_JS says
//             (a folder whose node_modules holds it; bench/pg-clients.mjs sets it).
// Every note's mode reads its record without counting its notes, as a keeper does: a note's answer
// shows no count, and counting grows with the notes at every note.
// Prints `port N` once it listens on 127.0.0.1.
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import pg from 'pg';

const [url, mode] = process.argv.slice(2);
const pool = new pg.Pool({ connectionString: url, max: 8, pipeline: true });
/** postgres.js, for `two-js` alone: its pool of the same size. */
const js = mode === 'two-js'
  ? createRequire(join(process.env.BINDER_POSTGRES_JS ?? '.', 'here.js'))('postgres')(url.split('?')[0], {
    // It takes `?host=` (the socket's folder) for a server setting: said apart.
    max: 8, onnotice: () => undefined, host: new URL(url).searchParams.get('host') ?? undefined,
  })
  : null;
const named = (name, text, values) => ({ name, text, values });
const BY = JSON.stringify({ id: 'agent:bench', kind: 'agent', name: 'Bench agent' });

const TOKEN = 'SELECT t.*, (SELECT s.name FROM sides s WHERE s.agent = t.agent) AS side FROM tokens t WHERE t.hash = $1';
const LEDGER = 'SELECT at, answer, delivered FROM asks WHERE dir = $1 AND id = $2';
const RECORD = `SELECT r.*, (SELECT count(*) FROM notes n WHERE n.record = r.id) AS note_count,
  (SELECT count(*) FROM attachments a WHERE a.record = r.id) AS attach_count,
  l.title AS list_title, l.states AS list_states, l.fields AS list_fields, l.view AS list_view, l.archived AS list_archived,
  (SELECT a.level FROM access a WHERE a.list = r.list AND a.agent = $1) AS list_level
  FROM records r JOIN lists l ON l.id = r.list WHERE r.id = $2`;
/** The record as a keeper looks at it for a note: no count (a note's answer shows none). */
const RECORD_TO_CHANGE = `SELECT r.*, l.title AS list_title, l.states AS list_states, l.fields AS list_fields, l.view AS list_view, l.archived AS list_archived,
  (SELECT a.level FROM access a WHERE a.list = r.list AND a.agent = $1) AS list_level
  FROM records r JOIN lists l ON l.id = r.list WHERE r.id = $2`;
const NOTE = 'INSERT INTO notes (record, at, by, text) VALUES ($1, $2, $3, $4) RETURNING *';
const TOUCH = 'UPDATE records SET updated = $1 WHERE id = $2';
const WORDS = `UPDATE record_text SET tsv = tsv || setweight(to_tsvector(config, $1) || to_tsvector('binder_simple', $1), 'B')
  WHERE record = $2 AND octet_length(tsv::text) <= 1000000`;
const HISTORY = 'INSERT INTO log (at, by, op, list, record, change) VALUES ($1, $2, $3, $4, $5, $6)';
const KEPT = 'INSERT INTO asks (dir, id, at, answer, delivered) VALUES ($1, $2, $3, $4, 1)';
const ALL = `WITH rec AS (SELECT r.id, r.list,
    (SELECT a.level FROM access a WHERE a.list = r.list AND a.agent = $1) AS level FROM records r JOIN lists l ON l.id = r.list WHERE r.id = $2),
  asked AS (SELECT at FROM asks WHERE dir = $3 AND id = $4),
  n AS (INSERT INTO notes (record, at, by, text) SELECT id, $5, $6, $7 FROM rec WHERE NOT EXISTS (SELECT 1 FROM asked) RETURNING *),
  t AS (UPDATE records SET updated = $5 WHERE id = (SELECT record FROM n)),
  w AS (UPDATE record_text SET tsv = tsv || setweight(to_tsvector(config, $7) || to_tsvector('binder_simple', $7), 'B')
    WHERE record = (SELECT record FROM n) AND octet_length(tsv::text) <= 1000000),
  h AS (INSERT INTO log (at, by, op, list, record, change) SELECT $5, $6, 'note', rec.list, n.record, json_build_object('note', n.id)::text FROM n, rec),
  k AS (INSERT INTO asks (dir, id, at, answer, delivered) SELECT $3, $4, $8, $9, 1 FROM n)
  SELECT * FROM n`;

const PART_NOTES = 'SELECT * FROM notes WHERE record = $1 ORDER BY id DESC LIMIT 10';
const PART_LOG = 'SELECT * FROM log WHERE record = $1 ORDER BY id DESC LIMIT 10';
const PART_ATTACHED = 'SELECT * FROM attachments WHERE record = $1 ORDER BY id';
// A record's links every way, as a keeper reads them: the other ends first, joined to their records once.
const PART_LINKS = `SELECT w.way, o.id, o.title, o.list, o.state, ol.states FROM (SELECT 0 AS way, needed AS other FROM needs WHERE record = $1
  UNION ALL SELECT 1, record FROM needs WHERE needed = $2 UNION ALL SELECT 2, parent FROM parents WHERE record = $3
  UNION ALL SELECT 3, record FROM parents WHERE parent = $4) w JOIN records o ON o.id = w.other JOIN lists ol ON ol.id = o.list ORDER BY 1, 2`;
const RECORD_WHOLE = `SELECT r.*, (SELECT count(*) FROM notes n WHERE n.record = r.id) AS note_count,
  (SELECT count(*) FROM attachments a WHERE a.record = r.id) AS attach_count,
  l.title AS list_title, l.states AS list_states, l.fields AS list_fields, l.view AS list_view, l.archived AS list_archived,
  (SELECT a.level FROM access a WHERE a.list = r.list AND a.agent = $1) AS list_level,
  (SELECT coalesce(json_agg(x ORDER BY x.id), '[]') FROM (SELECT * FROM notes WHERE record = r.id ORDER BY id DESC LIMIT 10) x) AS part_notes,
  (SELECT coalesce(json_agg(x ORDER BY x.id), '[]') FROM (SELECT * FROM log WHERE record = r.id ORDER BY id DESC LIMIT 10) x) AS part_log,
  (SELECT coalesce(json_agg(x ORDER BY x.id), '[]') FROM attachments x WHERE x.record = r.id) AS part_attached,
  (SELECT coalesce(json_agg(x), '[]') FROM (${PART_LINKS.replace(/\$[1-4]/g, 'r.id')}) x) AS part_links
  FROM records r JOIN lists l ON l.id = r.list WHERE r.id = $2`;

/** The token's row as a column of the page's statement: the read and its token's look, one statement. */
const TOKEN_AND_PAGE = `SELECT (SELECT row_to_json(t) FROM (${TOKEN}) t) AS token, ${RECORD_WHOLE.replace(/\$2/g, '$3').replace(/\$1/g, '$2').replace(/^SELECT /, '')}`;

const NEXT = "SELECT nextval(pg_get_serial_sequence('notes', 'id')) AS id";
const NOTE_AS = 'INSERT INTO notes (id, record, at, by, text) VALUES ($1, $2, $3, $4, $5)';

const tokenHashOf = (req) => createHash('sha256').update(/^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '').digest('hex');
/** What the note's second trip says, and the answer kept with it. */
function noteOf(record, noteId, text, at, now) {
  const made = { id: noteId, record: record.id, at, by: BY, text };
  return { made, answer: JSON.stringify({ ok: true, text: `noted on #${record.id}`, data: made }) };
}

/** One write for what is asked now (pg's own pipeline mode writes each statement apart). */
function corked(c) {
  const socket = c.connection.stream;
  socket.cork();
  queueMicrotask(() => socket.uncork());
}

async function twoTrips(req, id, text, key, now, at) {
  const c = await pool.connect();
  try {
    corked(c);
    const [, tok, , rec, next] = await Promise.all([c.query('BEGIN'), c.query(named('token', TOKEN, [tokenHashOf(req)])),
      c.query(named('ledger', LEDGER, ['bench', key])), c.query(named('record', RECORD_TO_CHANGE, ['Bench agent', id])), c.query(named('next', NEXT, []))]);
    if (!tok.rows[0]) throw new Error('no such token');
    const record = rec.rows[0];
    const { made, answer } = noteOf(record, Number(next.rows[0].id), text, at, now);
    corked(c);
    await Promise.all([c.query(named('note-as', NOTE_AS, [made.id, record.id, at, BY, text])), c.query(named('touch', TOUCH, [at, record.id])),
      c.query(named('words', WORDS, [text, record.id])),
      c.query(named('history', HISTORY, [at, BY, 'note', record.list, record.id, JSON.stringify({ note: made.id })])),
      c.query(named('kept', KEPT, ['bench', key, now, answer])), c.query('COMMIT')]);
    return answer;
  } catch (error) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    c.release();
  }
}

async function twoTripsJs(req, id, text, key, now, at) {
  const c = await js.reserve();
  try {
    const sent = (sql, params) => c.unsafe(sql, params, { prepare: true }).execute();
    const [, tok, , rec, next] = await Promise.all([sent('BEGIN'), sent(TOKEN, [tokenHashOf(req)]), sent(LEDGER, ['bench', key]),
      sent(RECORD_TO_CHANGE, ['Bench agent', id]), sent(NEXT, [])]);
    if (!tok[0]) throw new Error('no such token');
    const record = rec[0];
    const { made, answer } = noteOf(record, Number(next[0].id), text, at, now);
    await Promise.all([sent(NOTE_AS, [made.id, record.id, at, BY, text]), sent(TOUCH, [at, record.id]), sent(WORDS, [text, record.id]),
      sent(HISTORY, [at, BY, 'note', record.list, record.id, JSON.stringify({ note: made.id })]),
      sent(KEPT, ['bench', key, now, answer]), sent('COMMIT')]);
    return answer;
  } catch (error) {
    await c.unsafe('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    c.release();
  }
}

async function token(req) {
  const given = /^Bearer (\S+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
  const row = (await pool.query(named('token', TOKEN, [createHash('sha256').update(given).digest('hex')]))).rows[0];
  if (!row) throw new Error('no such token');
  return row.agent;
}

async function asSent(agent, id, text, key, now, at) {
  const c = await pool.connect();
  try {
    const [, , , record] = await Promise.all([c.query('BEGIN'), c.query(named('ledger', LEDGER, ['bench', key])), c.query('SAVEPOINT s1'),
      c.query(named('record', RECORD_TO_CHANGE, [agent, id]))]);
    const rec = record.rows[0];
    const [note] = await Promise.all([c.query(named('note', NOTE, [rec.id, at, BY, text])), c.query(named('touch', TOUCH, [at, rec.id]))]);
    const made = note.rows[0];
    const answer = JSON.stringify({ ok: true, text: `noted on #${rec.id}`, data: made });
    await Promise.all([c.query(named('words', WORDS, [text, rec.id])),
      c.query(named('history', HISTORY, [at, BY, 'note', rec.list, rec.id, JSON.stringify({ note: made.id })])),
      c.query(named('kept', KEPT, ['bench', key, now, answer])), c.query('COMMIT')]);
    return answer;
  } finally {
    c.release();
  }
}

async function oneStatement(agent, id, text, key, now, at) {
  const c = await pool.connect();
  try {
    const answer = JSON.stringify({ ok: true, text: `noted on #${id}` });
    const [, made] = await Promise.all([c.query('BEGIN'), c.query(named('all', ALL, [agent, id, 'bench', key, at, BY, text, now, answer])), c.query('COMMIT')]);
    return JSON.stringify({ ok: true, text: `noted on #${id}`, data: made.rows[0] });
  } finally {
    c.release();
  }
}

/** `hello`'s answer: the size of a record's page as a keeper answers it, made once. */
const HELLO = JSON.stringify({ ok: true, text: 'Read.', data: { title: 'x'.repeat(1_150) } });

/** The first failure is said once: a figure of refusals is no figure. */
let said = false;
const server = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk) => { body += chunk; });
  req.on('end', async () => {
    try {
      if (mode === 'hello') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(HELLO);
        return;
      }
      if (mode === 'read-as-sent' || mode === 'read-whole') {
        const id = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('id'));
        const c = await pool.connect();
        try {
          corked(c);
          let got;
          if (mode === 'read-whole') {
            const [tok, rec] = await Promise.all([c.query(named('token', TOKEN, [tokenHashOf(req)])), c.query(named('whole', RECORD_WHOLE, ['Bench agent', id]))]);
            if (!tok.rows[0]) throw new Error('no such token');
            got = rec.rows[0];
          } else {
            const [, tok, notes, log, att, links, rec] = await Promise.all([c.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY'),
              c.query(named('token', TOKEN, [tokenHashOf(req)])), c.query(named('notes', PART_NOTES, [id])), c.query(named('log', PART_LOG, [id])),
              c.query(named('att', PART_ATTACHED, [id])), c.query(named('links', PART_LINKS, [id, id, id, id])), c.query(named('record', RECORD, ['Bench agent', id]))]);
            void c.query('COMMIT');
            if (!tok.rows[0]) throw new Error('no such token');
            got = { ...rec.rows[0], part_notes: notes.rows, part_log: log.rows, part_attached: att.rows, part_links: links.rows };
          }
          res.writeHead(got ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: Boolean(got), data: got }));
        } finally {
          c.release();
        }
        return;
      }
      if (mode === 'read-carried') {
        const id = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('id'));
        const row = (await pool.query(named('carried', TOKEN_AND_PAGE, [tokenHashOf(req), 'Bench agent', id]))).rows[0];
        if (row && !row.token) throw new Error('no such token');
        if (row) delete row.token;
        res.writeHead(row ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: Boolean(row), data: row }));
        return;
      }
      if (mode === 'read' || mode === 'read-page') {
        const id = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('id'));
        const row = (await pool.query(mode === 'read' ? named('record', RECORD, ['Bench agent', id]) : named('whole', RECORD_WHOLE, ['Bench agent', id]))).rows[0];
        res.writeHead(row ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: Boolean(row), data: row }));
        return;
      }
      const { id, text } = JSON.parse(body);
      if (mode === 'two' || mode === 'two-js') {
        const now = Date.now();
        const answer = await (mode === 'two' ? twoTrips : twoTripsJs)(req, id, text, req.headers['idempotency-key'], now, new Date(now).toISOString());
        res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
        return;
      }
      const agent = mode === 'no-token' ? 'Bench agent' : await token(req);
      const now = Date.now();
      const at = new Date(now).toISOString();
      const answer = await (mode === 'as-sent' ? asSent : oneStatement)(agent, id, text, req.headers['idempotency-key'], now, at);
      res.writeHead(200, { 'content-type': 'application/json' }).end(answer);
    } catch (error) {
      if (!said) process.stderr.write(`floor-server ${mode}: ${String(error)}\n`);
      said = true;
      res.writeHead(500, { 'content-type': 'text/plain' }).end(String(error));
    }
  });
});
server.listen(0, '127.0.0.1', () => process.stdout.write(`port ${server.address().port}\n`));
