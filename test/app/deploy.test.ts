/**
 * The deployment files in deploy/: the systemd unit is checked by `systemd-analyze verify` where
 * systemd is present (its binder pointed at this build, its man page found in dist/man), and
 * keeps its hardening; the Dockerfile and the compose file are read, not run (no container
 * engine runs the tests), for what docs/team.md promises of them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BINDER, ROOT } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

const deploy = (name: string): string => readFileSync(join(ROOT, 'deploy', name), 'utf8');
const noSystemd = spawnSync('systemd-analyze', ['--version']).status === 0 ? false : 'systemd-analyze is not installed here';

test('the systemd unit passes systemd-analyze verify and keeps its hardening', { skip: noSystemd }, (t) => {
  const unit = deploy('binder.service');
  for (const line of ['User=binder', 'ProtectSystem=strict', 'ReadWritePaths=/var/lib/binder', 'NoNewPrivileges=true', 'ProtectHome=true', 'PrivateTmp=true']) {
    assert.match(unit, new RegExp(`^${line}$`, 'm'), line);
  }
  assert.match(unit, /^ExecStart=\/usr\/local\/bin\/binder serve --no-tui --http /m);
  const file = join(tempDir(t), 'binder.service');
  writeFileSync(file, unit.replace('/usr/local/bin/binder ', `${BINDER} `));
  const r = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8', env: { ...process.env, MANPATH: join(ROOT, 'dist', 'man') } });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stderr.trim(), '');

  // It can fail: a unit whose command is not there is refused.
  writeFileSync(file, unit.replace('/usr/local/bin/binder ', '/nowhere/binder '));
  assert.notEqual(spawnSync('systemd-analyze', ['verify', file], { env: { ...process.env, MANPATH: join(ROOT, 'dist', 'man') } }).status, 0);
});

test('the Dockerfile and the compose file say what docs/team.md says of them', () => {
  const docker = deploy('Dockerfile');
  assert.match(docker, /^FROM node:\d+-\w+-slim$/m);
  assert.match(docker, /^USER binder$/m);
  assert.match(docker, /^VOLUME \["\/var\/lib\/binder"\]$/m);
  assert.match(docker, /^HEALTHCHECK .*\n.*\/healthz/m);
  const compose = deploy('compose.yaml');
  for (const service of ['db', 'keeper-1', 'keeper-2', 'nginx']) assert.match(compose, new RegExp(`^  ${service}:`, 'm'), service);
  assert.match(deploy('nginx.conf'), /server keeper-1:4180[\s\S]*server keeper-2:4180/);
});
