/**
 * A webhook receiver for the tests: a real HTTP server on 127.0.0.1 that checks each delivery's
 * signature as docs/hooks.md tells a receiver to, keeps what came in the order it came, and
 * answers as the test says (a status, or never, to leave a try hanging).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'node:test';

/** The check docs/hooks.md gives a receiver, as written there. */
export function verifyBinderSignature(secret: string, header: string, body: string, toleranceSeconds = 300): boolean {
  const parts = new Map(header.split(',').map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
  const t = Number(parts.get('t'));
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(parts.get('v1') ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export interface Delivery {
  id: string;
  event: string;
  body: Record<string, unknown>;
  signed: boolean;
  /** What the receiver answered (null: it has not, or never will). */
  answered: number | null;
}

/** What to answer a delivery: a status (and a body), or 'hang' to answer never. */
export type Answering = (d: Delivery, n: number) => { status: number; body?: string; headers?: Record<string, string> } | 'hang';

export interface Receiver {
  url: string;
  /** Every delivery as it came, repeats too. */
  got: Delivery[];
  /** The secret the signatures are checked with (set once `hook add` printed it). */
  secret: string;
  answer: Answering;
  /** Requests left hanging, answered at the end so the server can close. */
  close(): Promise<void>;
}

export async function hookReceiver(t: TestContext, answer: Answering = () => ({ status: 200 })): Promise<Receiver> {
  const hanging: ServerResponse[] = [];
  const receiver: Receiver = { url: '', got: [], secret: '', answer, close: async () => {} };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try { body = JSON.parse(raw) as Record<string, unknown>; } catch { /* kept empty: the test sees it */ }
      const d: Delivery = {
        id: String(req.headers['binder-delivery'] ?? ''), event: String(req.headers['binder-event'] ?? ''), body,
        signed: verifyBinderSignature(receiver.secret, String(req.headers['binder-signature'] ?? ''), raw), answered: null,
      };
      receiver.got.push(d);
      const said = receiver.answer(d, receiver.got.length);
      if (said === 'hang') { hanging.push(res); return; }
      d.answered = said.status;
      res.writeHead(said.status, { 'content-type': 'text/plain', ...said.headers });
      res.end(said.body ?? '');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = async () => {
    for (const res of hanging) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((done) => server.close(() => done()));
  };
  t.after(() => receiver.close());
  return receiver;
}
