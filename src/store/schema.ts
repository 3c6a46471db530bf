/**
 * The store's tables, as an ordered list of migrations keyed on `PRAGMA user_version`.
 * A migration only ever adds: a released one is never edited, a new one is appended.
 */
import { ROW_BYTES, ROW_NOTES } from './text-index.js';

export const MIGRATIONS: readonly string[] = [
  // 1: the binder, its history, its search index, and the keeper's ledger of asks.
  `
  CREATE TABLE lists (
    id        TEXT PRIMARY KEY,
    title     TEXT NOT NULL,
    states    TEXT NOT NULL,            -- JSON: State[] in order
    fields    TEXT NOT NULL,            -- JSON: Field[]
    view      TEXT NOT NULL DEFAULT 'board' CHECK (view IN ('board', 'table')),
    archived  INTEGER NOT NULL DEFAULT 0,
    position  INTEGER NOT NULL DEFAULT 0,
    created   TEXT NOT NULL,
    updated   TEXT NOT NULL
  );

  CREATE TABLE access (
    list   TEXT NOT NULL REFERENCES lists(id) ON DELETE CASCADE ON UPDATE CASCADE,
    agent  TEXT NOT NULL,
    level  TEXT NOT NULL CHECK (level IN ('read', 'write')),
    PRIMARY KEY (list, agent)
  ) WITHOUT ROWID;

  -- AUTOINCREMENT: a record's number is never given again, even after a delete.
  CREATE TABLE records (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    list         TEXT NOT NULL REFERENCES lists(id) ON DELETE CASCADE ON UPDATE CASCADE,
    title        TEXT NOT NULL,
    state        TEXT NOT NULL,
    approved_by  TEXT,                  -- JSON Who, or NULL
    approved_at  TEXT,
    fields       TEXT NOT NULL DEFAULT '{}',
    owners       TEXT NOT NULL DEFAULT '[]',
    due          TEXT,
    due_at       INTEGER,               -- the due time in ms, for the due scan
    due_told     INTEGER NOT NULL DEFAULT 0,
    archived     INTEGER NOT NULL DEFAULT 0,
    created      TEXT NOT NULL,
    updated      TEXT NOT NULL
  );
  CREATE INDEX records_by_list ON records (list, archived, state, id);
  CREATE INDEX records_due ON records (due_at) WHERE due_at IS NOT NULL AND due_told = 0;

  CREATE TABLE notes (
    id      INTEGER PRIMARY KEY,
    record  INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
    at      TEXT NOT NULL,
    by      TEXT NOT NULL,              -- JSON Who
    text    TEXT NOT NULL,
    edited  INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX notes_by_record ON notes (record, id);

  CREATE TABLE attachments (
    id      INTEGER PRIMARY KEY,
    record  INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
    kind    TEXT NOT NULL,
    ref     TEXT NOT NULL,
    title   TEXT NOT NULL DEFAULT '',
    at      TEXT NOT NULL,
    by      TEXT NOT NULL
  );
  CREATE INDEX attachments_by_record ON attachments (record, id);

  CREATE TABLE log (
    id      INTEGER PRIMARY KEY,
    at      TEXT NOT NULL,
    by      TEXT NOT NULL,              -- JSON Who
    op      TEXT NOT NULL,
    list    TEXT,
    record  INTEGER,
    change  TEXT                        -- JSON, NULL once erased
  );
  CREATE INDEX log_by_record ON log (record, id);
  CREATE INDEX log_by_list ON log (list, id);

  -- Contentless: the index keeps terms, never a copy of the text, and secure-delete takes a
  -- deleted record's terms out of it at once.
  CREATE VIRTUAL TABLE record_text USING fts5 (
    title, notes, fields,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
  );
  INSERT INTO record_text (record_text, rank) VALUES ('secure-delete', 1);

  -- The agents' folders a keeper reads, as a person registered them.
  CREATE TABLE sides (
    name     TEXT PRIMARY KEY,          -- as shown; the agent is agent:<slug of name>
    agent    TEXT NOT NULL UNIQUE,
    dir      TEXT NOT NULL UNIQUE,      -- absolute path
    created  TEXT NOT NULL
  );

  -- Where the keeper stands in each folder's files: shared by every keeper of this store, so
  -- that two keepers never both take the same bytes.
  CREATE TABLE folder_marks (
    dir           TEXT PRIMARY KEY,
    asks_ino      TEXT NOT NULL DEFAULT '',
    asks_offset   INTEGER NOT NULL DEFAULT 0,
    asks_skipping INTEGER NOT NULL DEFAULT 0,   -- inside an over-long line: drop to its end
    answers_ino   TEXT NOT NULL DEFAULT '',
    answers_offset INTEGER NOT NULL DEFAULT 0,  -- answers file size after our last append
    last_ask      INTEGER NOT NULL DEFAULT 0,   -- ms of the last ask read
    compacted     INTEGER NOT NULL DEFAULT 0    -- ms of the last compaction
  ) WITHOUT ROWID;

  -- Every ask taken, by folder and id, recorded in the same transaction as its change:
  -- the proof that it was done, and the answer to give again after a crash.
  CREATE TABLE asks (
    dir        TEXT NOT NULL,
    id         TEXT NOT NULL,
    at         INTEGER NOT NULL,          -- ms the keeper took it
    answer     TEXT,                      -- JSON answer line; NULL once delivered and past the window
    delivered  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (dir, id)
  ) WITHOUT ROWID;
  CREATE INDEX asks_undelivered ON asks (delivered, at) WHERE delivered = 0;
  `,

  // 2: agents working together: claims with a lease, each reader's place in the history for
  // `brief`, and the waits a keeper holds open (so that the next keeper answers them).
  `
  ALTER TABLE records ADD COLUMN lease_by TEXT;       -- JSON Who of the holder, or NULL
  ALTER TABLE records ADD COLUMN lease_until INTEGER; -- ms when the claim lapses
  CREATE INDEX records_lease ON records (lease_until) WHERE lease_until IS NOT NULL;

  -- Where each reader stands in the history: brief shows the rows after it, once.
  CREATE TABLE cursors (
    who     TEXT PRIMARY KEY,           -- a Who id
    log_id  INTEGER NOT NULL
  ) WITHOUT ROWID;

  -- A wait ask taken (its id is in asks, with no answer yet) and held until something changes.
  CREATE TABLE waits (
    dir     TEXT NOT NULL,
    id      TEXT NOT NULL,
    who     TEXT NOT NULL,              -- JSON Who
    args    TEXT NOT NULL,              -- JSON: the ask's arguments
    want    TEXT,                       -- 'json' or NULL
    at      INTEGER NOT NULL,           -- ms it was taken
    until   INTEGER NOT NULL,           -- ms it is answered by at the latest
    PRIMARY KEY (dir, id)
  ) WITHOUT ROWID;
  `,
  // 3: the keeper's cleanup of old asks finds them by age without reading the whole ledger.
  `
  CREATE INDEX asks_by_at ON asks (at);
  `,
  // 4: counts of records per list, archived, state and approval, kept by triggers, so that a
  // list's counts are read, never counted over its records.
  `
  CREATE TABLE record_counts (
    list      TEXT NOT NULL,
    archived  INTEGER NOT NULL,
    state     TEXT NOT NULL,
    approved  INTEGER NOT NULL,
    n         INTEGER NOT NULL,
    PRIMARY KEY (list, archived, state, approved)
  ) WITHOUT ROWID;
  INSERT INTO record_counts (list, archived, state, approved, n)
    SELECT list, archived, state, approved_by IS NOT NULL, count(*) FROM records GROUP BY 1, 2, 3, 4;
  CREATE TRIGGER records_counted AFTER INSERT ON records BEGIN
    INSERT INTO record_counts (list, archived, state, approved, n)
      VALUES (NEW.list, NEW.archived, NEW.state, NEW.approved_by IS NOT NULL, 1)
      ON CONFLICT DO UPDATE SET n = n + 1;
  END;
  CREATE TRIGGER records_uncounted AFTER DELETE ON records BEGIN
    UPDATE record_counts SET n = n - 1 WHERE list = OLD.list AND archived = OLD.archived
      AND state = OLD.state AND approved = (OLD.approved_by IS NOT NULL);
    DELETE FROM record_counts WHERE n <= 0;
  END;
  CREATE TRIGGER records_recounted AFTER UPDATE OF list, archived, state, approved_by ON records
    WHEN OLD.list IS NOT NEW.list OR OLD.archived IS NOT NEW.archived OR OLD.state IS NOT NEW.state
      OR (OLD.approved_by IS NULL) IS NOT (NEW.approved_by IS NULL) BEGIN
    UPDATE record_counts SET n = n - 1 WHERE list = OLD.list AND archived = OLD.archived
      AND state = OLD.state AND approved = (OLD.approved_by IS NOT NULL);
    DELETE FROM record_counts WHERE n <= 0;
    INSERT INTO record_counts (list, archived, state, approved, n)
      VALUES (NEW.list, NEW.archived, NEW.state, NEW.approved_by IS NOT NULL, 1)
      ON CONFLICT DO UPDATE SET n = n + 1;
  END;
  `,
  // 5: the answers still to forget, found without reading every ask of the week.
  `
  CREATE INDEX asks_to_forget ON asks (at) WHERE delivered = 1 AND answer IS NOT NULL;
  `,
  // 6: a list's open, unclaimed records in id order: what is ready is read from the oldest on and
  // only until a page is full, never the whole list.
  `
  CREATE INDEX records_open ON records (list, id) WHERE archived = 0 AND lease_by IS NULL;
  CREATE INDEX records_priority ON records (list, json_extract(fields, '$.priority'), id) WHERE archived = 0 AND lease_by IS NULL;
  CREATE INDEX records_priorite ON records (list, json_extract(fields, '$.priorite'), id) WHERE archived = 0 AND lease_by IS NULL;
  `,
  // 7: records that need others done first (found both ways by index, gone with either record);
  // history rows brought in whole by a binder's import, which a brief never tells as news.
  `
  CREATE TABLE needs (
    record  INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
    needed  INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE,
    PRIMARY KEY (record, needed)
  ) WITHOUT ROWID;
  CREATE INDEX needs_by_needed ON needs (needed, record);
  ALTER TABLE log ADD COLUMN imported INTEGER NOT NULL DEFAULT 0;
  `,
  // 8: each registered folder bound to the directory a person registered (`dev:ino:birth`): a path
  // that leads elsewhere later is not read. From here on the keeper's ledger (asks, folder_marks,
  // waits) files each folder under that binding in `dir`, not under its path.
  `
  ALTER TABLE sides ADD COLUMN bound TEXT;
  `,
  // 9: agents' tokens for asking over HTTP, made by a person. Only a hash of each is kept: the
  // token itself is shown once, when it is made.
  `
  CREATE TABLE tokens (
    hash     TEXT PRIMARY KEY,          -- sha-256 of the whole token, hex
    prefix   TEXT NOT NULL UNIQUE,      -- its first characters: shown, logged, and enough to revoke it
    name     TEXT NOT NULL,             -- as the person gave it; the agent is agent:<slug of name>
    agent    TEXT NOT NULL,
    created  TEXT NOT NULL,
    used     INTEGER,                   -- ms of its last use, to the minute
    expires  INTEGER,                   -- ms it stops being accepted, or NULL for never
    revoked  TEXT                       -- ISO time a person revoked it, or NULL
  ) WITHOUT ROWID;
  CREATE INDEX tokens_by_agent ON tokens (agent);
  `,
  // 10: a person's sign-in to the web page: one-time login links and the sessions they open. Only
  // a hash of each link's key and of each session's cookie is kept.
  `
  CREATE TABLE login_links (
    hash     TEXT PRIMARY KEY,          -- sha-256 of the link's key, hex
    person   TEXT NOT NULL,             -- the person's name: the session is person:<name>
    created  INTEGER NOT NULL,          -- ms
    expires  INTEGER NOT NULL           -- ms; a link is deleted when used
  ) WITHOUT ROWID;
  CREATE TABLE sessions (
    hash     TEXT PRIMARY KEY,          -- sha-256 of the session's cookie value, hex
    id       TEXT NOT NULL UNIQUE,      -- a short id of its own (never part of the cookie): shown, and enough to revoke it
    person   TEXT NOT NULL,
    created  INTEGER NOT NULL,          -- ms
    used     INTEGER NOT NULL,          -- ms of its last use, to the minute
    expires  INTEGER NOT NULL,          -- ms
    revoked  INTEGER,                   -- ms a person revoked it (or signed out), or NULL
    browser  TEXT NOT NULL DEFAULT ''   -- the browser's User-Agent as it said it, cut short: for the list only
  ) WITHOUT ROWID;
  `,
  // 11: a list's language ('en' or 'fr', from its template; NULL for one made before): the search
  // of PostgreSQL stems its words in it.
  `
  ALTER TABLE lists ADD COLUMN lang TEXT;
  `,
  // 12: the people of a binder where people sign in through an identity provider: each with a
  // role; the first to sign in is its admin (`first_admin` is 1 on that row alone: two first
  // sign-ins at once cannot both insert it). A removed person's row stays: their history names them.
  `
  CREATE TABLE people (
    id           TEXT PRIMARY KEY,          -- the Who id: person:<issuer host>/<subject>
    name         TEXT NOT NULL,             -- as the provider last gave it
    email        TEXT,                      -- as the provider last gave it, or NULL
    role         TEXT NOT NULL CHECK (role IN ('admin', 'member')),
    first_admin  INTEGER CHECK (first_admin = 1),
    first_in     INTEGER NOT NULL,          -- ms of the first sign-in
    last_in      INTEGER NOT NULL,          -- ms of the latest sign-in
    removed      INTEGER                    -- ms an admin removed them, or NULL
  ) WITHOUT ROWID;
  CREATE UNIQUE INDEX people_first_admin ON people (first_admin) WHERE first_admin IS NOT NULL;
  `,
  // 13: a service store's own: each organisation's binder by its slug, and the organisation each
  // agent token was made in (a request finds the binder of its token in one look).
  `
  CREATE TABLE orgs (
    name     TEXT PRIMARY KEY,          -- as cleaned: lowercased, one line
    slug     TEXT NOT NULL UNIQUE,      -- [a-z0-9-]: the binder's folder, or its schema org_<slug>
    created  TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE token_orgs (
    hash  TEXT PRIMARY KEY,             -- sha-256 of the whole token, hex
    org   TEXT NOT NULL
  ) WITHOUT ROWID;
  `,
  // 14: people signed in through an identity provider (OpenID Connect): a session carries its
  // person (their Who, with e-mail) and organisation; a sign-in under way waits in signin_pending
  // (keyed by the hash of its state, its secrets sealed by the state itself, ten minutes, one use);
  // signin_issuer says the store is a signed-in service's, where login links are refused.
  `
  ALTER TABLE sessions ADD COLUMN who TEXT;           -- the signed-in person's Who as JSON, NULL for a login link's
  ALTER TABLE sessions ADD COLUMN org TEXT;           -- their organisation, NULL for a login link's
  CREATE TABLE signin_pending (
    hash     TEXT PRIMARY KEY,          -- sha-256 of the sign-in's state, hex
    browser  TEXT NOT NULL,             -- sha-256 of the cookie of the browser that started it, hex
    sealed   TEXT NOT NULL,             -- nonce, PKCE verifier and where to return, sealed with a key from the state
    expires  INTEGER NOT NULL           -- ms; taken by its delete when used
  ) WITHOUT ROWID;
  CREATE TABLE signin_issuer (
    issuer   TEXT PRIMARY KEY,          -- the identity provider this service signs people in with
    since    INTEGER NOT NULL           -- ms
  ) WITHOUT ROWID;
  `,
  // 15: a record's row in the search index holds its first notes alone (text-index.ts: ROW_NOTES,
  // ROW_BYTES), each later note a row of its own in note_text: writing the record's row again at
  // each note read all its notes, a quarter of a second on a record of long ones. The records whose
  // notes pass the bounds have their row written again; rows of records within them stay as they are.
  `
  CREATE VIRTUAL TABLE note_text USING fts5 (
    text,
    content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
  );
  INSERT INTO note_text (note_text, rank) VALUES ('secure-delete', 1);
  CREATE TEMP TABLE note_place AS
    SELECT id, record, row_number() OVER w <= ${ROW_NOTES} AND sum(octet_length(text)) OVER w <= ${ROW_BYTES} AS in_row
    FROM notes WINDOW w AS (PARTITION BY record ORDER BY id);
  CREATE TEMP TABLE spilling AS SELECT DISTINCT record AS id FROM note_place WHERE NOT in_row;
  DELETE FROM record_text WHERE rowid IN (SELECT id FROM spilling);
  INSERT INTO record_text (rowid, title, notes, fields)
    SELECT r.id, r.title,
      coalesce((SELECT group_concat(n.text, char(10) ORDER BY n.id) FROM notes n JOIN note_place p ON p.id = n.id WHERE n.record = r.id AND p.in_row), ''),
      coalesce((SELECT group_concat(value, char(10)) FROM json_each(r.fields)), '')
    FROM records r WHERE r.id IN (SELECT id FROM spilling);
  INSERT INTO note_text (rowid, text) SELECT n.id, n.text FROM notes n JOIN note_place p ON p.id = n.id WHERE NOT p.in_row;
  DROP TABLE note_place;
  DROP TABLE spilling;
  `,
  // 16: a sign-in under way is kept in the browser that began it (a cookie sealed with signin_seal's
  // key), never in the store: a sign-in costs no write before the provider has answered. Once it
  // answered, the state's hash is kept in signin_used until the sign-in would have expired, so that
  // a callback is finished once.
  `
  DROP TABLE signin_pending;
  CREATE TABLE signin_used (
    hash     TEXT PRIMARY KEY,          -- sha-256 of a finished sign-in's state, hex
    expires  INTEGER NOT NULL           -- ms; forgotten after
  ) WITHOUT ROWID;
  CREATE TABLE signin_seal (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    key      TEXT NOT NULL              -- 32 random bytes, base64url: seals the sign-in cookies of every keeper of the store
  ) WITHOUT ROWID;
  `,
  // 17: webhooks a person made, and their deliveries: what happened in the binder, told to a
  // URL, kept until it answered (or a day passed) so that a keeper's restart loses none. The
  // secret is kept as it is, for the keeper signs each delivery with it (docs/hooks.md).
  `
  CREATE TABLE hooks (
    id       TEXT PRIMARY KEY,          -- hook_ and 8 characters: shown, and enough to remove it
    url      TEXT NOT NULL,
    events   TEXT NOT NULL,             -- JSON: the events it is told, in order
    list     TEXT REFERENCES lists(id) ON DELETE CASCADE, -- the list it is made for, or NULL for every list; gone with it
    secret   TEXT NOT NULL,             -- whsec_…: signs its deliveries; shown once, when made
    created  TEXT NOT NULL,
    by       TEXT NOT NULL,             -- JSON Who
    seen     INTEGER NOT NULL           -- the last history row it was told of (or made after)
  ) WITHOUT ROWID;
  CREATE TABLE hook_deliveries (
    id       TEXT PRIMARY KEY,          -- the delivery's id, the same at each try: the receiver drops repeats by it
    seq      INTEGER NOT NULL,          -- its place among the hook's deliveries
    hook     TEXT NOT NULL REFERENCES hooks(id) ON DELETE CASCADE,
    queue    TEXT NOT NULL,             -- the record it is of (or its own id): one at a time, in order
    event    TEXT NOT NULL,
    body     TEXT NOT NULL,
    created  INTEGER NOT NULL,          -- ms; tried until a day after
    next_try INTEGER NOT NULL,          -- ms of its next try
    tries    INTEGER NOT NULL DEFAULT 0,
    sending  INTEGER NOT NULL DEFAULT 0, -- ms until which a keeper is sending it
    done     TEXT,                      -- 'sent' or 'given up', or NULL while it is tried
    status   INTEGER,                   -- the last answer's HTTP status
    error    TEXT,                      -- the last try's failure, clipped
    tried    INTEGER                    -- ms of the last try
  ) WITHOUT ROWID;
  CREATE INDEX hook_deliveries_waiting ON hook_deliveries (hook, queue, seq) WHERE done IS NULL;
  CREATE INDEX hook_deliveries_last ON hook_deliveries (hook, tried);
  `,
  // 18: records under records: a record's one parent (found both ways by index; the link goes
  // with either record, so a parent deleted leaves its children where they are).
  `
  CREATE TABLE parents (
    record  INTEGER PRIMARY KEY REFERENCES records(id) ON DELETE CASCADE,
    parent  INTEGER NOT NULL REFERENCES records(id) ON DELETE CASCADE
  );
  CREATE INDEX parents_by_parent ON parents (parent, record);
  `,
  // 19: a list may say that a parent is ready only once its children are done (1), as a record
  // that needs others is (off, 0, for every list made before).
  `
  ALTER TABLE lists ADD COLUMN children_first INTEGER NOT NULL DEFAULT 0;
  `,
];
