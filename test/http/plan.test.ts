/** `--http` and its companions, read before anything listens: addresses, TLS or a proxy off loopback, the rate. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { httpPlan } from '../../src/http/plan.js';
import { servedHosts } from '../../src/http/listen.js';
import { hostName, sameOrigin } from '../../src/http/guard.js';

const problem = (flags: Parameters<typeof httpPlan>[0]): string => {
  const plan = httpPlan(flags);
  assert.ok(plan && 'problem' in plan, JSON.stringify(plan));
  return plan.problem;
};

test('--http alone is 127.0.0.1:4180; a port, a host, both; IPv6 in brackets', () => {
  assert.equal(httpPlan({}), null);
  assert.deepEqual(httpPlan({ http: true }), { host: '127.0.0.1', port: 4180, behindProxy: false, allowHosts: [] });
  assert.deepEqual(httpPlan({ http: '8080' }), { host: '127.0.0.1', port: 8080, behindProxy: false, allowHosts: [] });
  assert.deepEqual(httpPlan({ http: 'localhost:9000' }), { host: 'localhost', port: 9000, behindProxy: false, allowHosts: [] });
  assert.deepEqual(httpPlan({ http: '[::1]:9000' }), { host: '::1', port: 9000, behindProxy: false, allowHosts: [] });
  assert.match(problem({ http: '99999' }), /--http takes \[HOST:\]PORT/);
  assert.match(problem({ http: 'a b' }), /--http takes/);
  assert.match(problem({ behindProxy: true }), /--behind-proxy only go with --http/);
});

test('off loopback it needs TLS or a proxy in front, and says which', () => {
  assert.match(problem({ http: '0.0.0.0:4180' }), /^Listening on 0\.0\.0\.0 lets other machines reach the binder.*--tls-cert FILE and --tls-key FILE, or --behind-proxy/);
  assert.match(problem({ http: '192.168.1.5' }), /Listening on 192\.168\.1\.5/);
  assert.match(problem({ http: '0.0.0.0', tlsCert: 'c.pem' }), /both --tls-cert FILE and --tls-key FILE/);
  assert.deepEqual(httpPlan({ http: '0.0.0.0:443', tlsCert: 'c.pem', tlsKey: 'k.pem' }),
    { host: '0.0.0.0', port: 443, tls: { cert: 'c.pem', key: 'k.pem' }, behindProxy: false, allowHosts: [] });
  assert.deepEqual(httpPlan({ http: '0.0.0.0:8080', behindProxy: true, allowHost: ['Binder.Example.org'] }),
    { host: '0.0.0.0', port: 8080, behindProxy: true, allowHosts: ['binder.example.org'] });
});

test('--rate is requests a second per token, its burst five times that unless given', () => {
  const plan = httpPlan({ http: true, rate: '2000' });
  assert.ok(plan && !('problem' in plan));
  assert.deepEqual(plan.rate, { perSecond: 2000, burst: 10_000 });
  const both = httpPlan({ http: true, rate: '10/15' });
  assert.ok(both && !('problem' in both));
  assert.deepEqual(both.rate, { perSecond: 10, burst: 15 });
  assert.match(problem({ http: true, rate: 'fast' }), /--rate takes requests a second/);
  assert.match(problem({ http: true, rate: '0' }), /--rate takes/);
});

test('the hosts a request may name: the address, its loopback names, --allow-host; every address of the machine for 0.0.0.0', () => {
  assert.deepEqual([...servedHosts({ host: '127.0.0.1', port: 1, behindProxy: false, allowHosts: ['b.example'] })].sort(), ['127.0.0.1', '::1', 'b.example', 'localhost']);
  const any = servedHosts({ host: '0.0.0.0', port: 1, behindProxy: true, allowHosts: [] });
  assert.ok(any.has('localhost') && any.has('127.0.0.1'));
  assert.ok(!any.has('evil.example'));
  assert.equal(hostName('Example.ORG:4180'), 'example.org');
  assert.equal(hostName('[::1]:4180'), '::1');
  assert.equal(hostName('example.org.'), 'example.org');
  assert.equal(hostName('a b'), null);
  assert.equal(hostName('evil.example@localhost'), null);
  assert.ok(sameOrigin('http://localhost:4180', 'http://LOCALHOST:4180'));
  assert.ok(sameOrigin('https://b.example', 'https://b.example:443'));
  assert.ok(!sameOrigin('http://localhost:4180', 'http://localhost:4181'));
  assert.ok(!sameOrigin('null', 'http://localhost:4180'));
});
