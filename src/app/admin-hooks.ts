/**
 * `binder admin hook add|list|remove|test`: an admin's webhooks, beside the catalog as the
 * sign-in commands are, so that no agent's face (the CLI's verbs, MCP, REST) can list or reach
 * them; the store refuses them to an agent and to a member all the same. A hook's secret is
 * printed by `hook add` alone, once; nothing here prints a receiver's answer but plainly and clipped.
 */
import type { Command } from 'commander';
import type { Place } from '../exchange/commands.js';
import { HOOK_EVENTS, type HookInfo } from '../store/index.js';
import { withStore } from './admin-store.js';
import { utc } from '../keeper/catalog-together.js';
import { jsonDocument } from '../keeper/json-document.js';
import { safeAnswer } from '../keeper/terminal-safe.js';

type Run = (place: Place) => Promise<number>;

const lastLine = (h: HookInfo): string => {
  const counts = `${h.waiting} waiting${h.givenUp ? `, ${h.givenUp} given up after a day` : ''}`;
  if (!h.last) return `  never tried yet; ${counts}`;
  const status = h.last.status === null ? 'no answer' : `HTTP ${h.last.status}`;
  return `  last: ${h.last.event} at ${utc(h.last.at)}, ${status}${h.last.error ? ` (${h.last.error})` : ''}; ${counts}`;
};

export const hookLines = (h: HookInfo): string =>
  `${h.id}  ${h.url}  ${h.list ? `list ${h.list}` : 'every list'}: ${h.events.join(', ')}  (made by ${h.by}, ${utc(h.created)})\n${lastLine(h)}`;

export function addHookCommands(admin: Command, chosen: (run: Run) => void): void {
  const hook = admin.command('hook').description('webhooks: a URL told of what happens in the binder (an admin\'s)');
  hook.command('add')
    .description('Make a webhook: each event is POSTed to URL as JSON, signed with a secret shown this once.')
    .argument('<URL>', 'https://…, or http:// on this machine (localhost, 127.0.0.1, [::1])')
    .option('--events <EVENTS>', `the events it is told of, with commas (${HOOK_EVENTS.join(',')}; all by default)`)
    .option('--list <LIST>', 'only this list\'s records (every list by default)')
    .addHelpText('after', '\nExample:\n  binder admin hook add https://chat.example/binder --events proposed,approved --list Batches\n\nHow a receiver checks a delivery: docs/hooks.md.')
    .action((url: string, o: { events?: string; list?: string }) => {
      chosen((place) => withStore(place.store, async (store) => {
        const made = await store.addHook({ url, ...(o.events !== undefined ? { events: o.events } : {}), ...(o.list !== undefined ? { list: o.list } : {}) }, place.who);
        if (place.json) { process.stdout.write(`${jsonDocument(made)}\n`); return 0; }
        process.stdout.write(`${made.secret}\n${safeAnswer(`The secret above signs ${made.id}'s deliveries to ${made.url}, shown this once: give it to the receiver, which checks each delivery's Binder-Signature with it (docs/hooks.md). Try it: binder admin hook test ${made.id}`)}\n`);
        return 0;
      }));
    });
  hook.command('list')
    .description('The webhooks, each with its last try (status, error) and its deliveries waiting.')
    .addHelpText('after', '\nExample:\n  binder admin hook list')
    .action(() => {
      chosen((place) => withStore(place.store, async (store) => {
        const hooks = await store.hooks(place.who);
        if (place.json) process.stdout.write(`${jsonDocument(hooks)}\n`);
        else process.stdout.write(hooks.length ? `${hooks.map((h) => safeAnswer(hookLines(h))).join('\n')}\n` : 'No webhook: binder admin hook add URL makes one.\n');
        return 0;
      }));
    });
  hook.command('remove')
    .description('Remove a webhook, with the deliveries it still had to make.')
    .argument('<ID>', 'the hook\'s id, as hook list shows it')
    .addHelpText('after', '\nExample:\n  binder admin hook remove hook_Xk2mP9qA')
    .action((id: string) => {
      chosen((place) => withStore(place.store, async (store) => {
        const gone = await store.removeHook(id, place.who);
        process.stdout.write(place.json ? `${jsonDocument(gone)}\n` : `${safeAnswer(`Removed ${gone.id} (${gone.url}): it is told of nothing more.`)}\n`);
        return 0;
      }));
    });
  hook.command('test')
    .description('Send the webhook a delivery of the event "test", through the keeper, as any other.')
    .argument('<ID>', 'the hook\'s id, as hook list shows it')
    .addHelpText('after', '\nExample:\n  binder admin hook test hook_Xk2mP9qA\n\nA keeper sends it (binder serve or binder tui must be running); hook list then shows how it went.')
    .action((id: string) => {
      chosen((place) => withStore(place.store, async (store) => {
        const made = await store.testHook(id, place.who);
        process.stdout.write(place.json ? `${jsonDocument(made)}\n` : `${safeAnswer(`Delivery ${made.delivery} of "test" waits for the keeper to send it to ${made.hook}: binder admin hook list says how it went.`)}\n`);
        return 0;
      }));
    });
}
