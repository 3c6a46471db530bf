/**
 * docs/team.md's "Try it on one machine" as a newcomer pastes it: the stand-in provider's file
 * and nginx's configuration are taken from the page itself, then run. The provider must give a
 * verified e-mail (without one, the page refuses to sign anyone in); nginx must start for someone
 * who is not root (its usual logs and temporary folders are root's).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

const page = readFileSync(join(ROOT, 'docs', 'team.md'), 'utf8');

/** The text of the here-document that writes `name` in the try (`cat > NAME <<'END'` … `END`). */
function pasted(name: string): string {
  const found = new RegExp(`^ {4}cat > ${name.replace('.', '\\.')} <<'END'\\n([\\s\\S]*?)^ {4}END$`, 'm').exec(page);
  assert.ok(found, `docs/team.md writes ${name} in its try`);
  return found[1]!.replace(/^ {4}/gm, '');
}

const noNginx = spawnSync('nginx', ['-v']).error ? 'nginx is not installed here' : false;

test("the try's provider signs a person in with a verified e-mail", async (t) => {
  const dir = tempDir(t);
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const source = pasted('provider.mjs');
  assert.match(source, /start\(9400, 'localhost'\)/);
  writeFileSync(join(dir, 'provider.mjs'), source.replace("start(9400, 'localhost')", "start(0, '127.0.0.1'); console.log(`at ${server.issuer.url}`)"));
  const child = spawn(process.execPath, ['provider.mjs'], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });
  t.after(() => child.kill());
  const issuer = await new Promise<string>((done, fail) => {
    let out = '';
    child.stdout.on('data', (chunk) => { out += chunk; const at = /at (http:\S+)/.exec(out); if (at) done(at[1]!); });
    child.on('exit', (code) => fail(new Error(`the provider exited ${code}`)));
  });
  const answer = await fetch(`${issuer}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials&client_id=binder&scope=openid',
  });
  assert.equal(answer.status, 200);
  const { access_token: token } = await answer.json() as { access_token: string };
  const claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
  assert.equal(claims.email, 'you@example.test');
  assert.equal(claims.email_verified, true);
});

test("the try's nginx configuration starts for someone who is not root", { skip: noNginx }, (t) => {
  const dir = tempDir(t);
  chmodSync(dir, 0o777);
  writeFileSync(join(dir, 'nginx.conf'), pasted('nginx.conf'));
  assert.match(page, /^ {4}mkdir -p ~\/try\/temp$/m);
  spawnSync('mkdir', ['-m', '0777', join(dir, 'temp')]);
  // As root, the check runs as nobody: root could write where the person could not.
  const asSomeone = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups'] : [];
  const r = spawnSync(asSomeone[0] ?? 'nginx', [...asSomeone.slice(1), ...(asSomeone.length ? ['nginx'] : []),
    '-t', '-p', dir, '-c', join(dir, 'nginx.conf'), '-g', `pid ${dir}/nginx.pid; error_log ${dir}/error.log;`], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /test is successful/);
});
