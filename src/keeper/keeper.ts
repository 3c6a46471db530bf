/**
 * The keeper as a library: one store, the folders it reads, and the one dispatch through which
 * both agents' asks and a person's actions go. `binder serve`, the screen and an embedding
 * application all build on this. It never decides who asks from what an ask says: a folder's
 * asks are its side's, a person's acts are the person's.
 */
import { resolve } from 'node:path';
import { type Change, openStore, type Side, slug, type Store, type Who } from '../store/index.js';
import { DIRECT_PLACE, createDirectAsks } from './direct-asks.js';
import { createFolderPump } from './folder-pump.js';
import { createHeldWaits } from './held-waits.js';
import { createHookSender } from './hook-sender.js';
import { createNews } from './news.js';
import type { ActOptions, Keeper, KeeperOptions, SideConfig } from './keeper-types.js';
import { createPerform } from './perform.js';
import type { Answer } from './protocol.js';
import { scrubbed, toStderr } from './log-line.js';

export type { ActOptions, Keeper, KeeperOptions, SideConfig } from './keeper-types.js';

/** An agent known by its folder: `agent:<slug of name>`. */
export function agentWho(name: string): Who {
  return { id: `agent:${slug(name) || 'agent'}`, kind: 'agent', name };
}

/** A person at a screen or a shell. */
export function personWho(name: string): Who {
  return { id: `person:${name}`, kind: 'person', name };
}

export function createKeeper(options: KeeperOptions): Keeper {
  const opened = typeof options.store === 'string';
  const now = options.now ?? Date.now;
  const store: Store = typeof options.store === 'string' ? openStore(options.store, { now }) : options.store;
  // A bug's details may quote an agent's text, an answer a secret: made safe and scrubbed, wherever the log goes.
  const log = options.log ? scrubbed(options.log) : toStderr;
  const perform = createPerform({ store, log });

  // The folders: those given for this run, then those a person registered in the store (read
  // again at each pass of the pump).
  const given = options.sides;
  let registered: Side[] = [];
  const refresh = async (): Promise<void> => {
    registered = await store.sides();
  };
  const sides = (): SideConfig[] => {
    const out = new Map<string, SideConfig>();
    for (const side of typeof given === 'function' ? given() : given ?? []) out.set(resolve(side.dir), { ...side, dir: resolve(side.dir) });
    for (const side of registered) {
      if (!out.has(side.dir)) out.set(side.dir, { dir: side.dir, who: { id: side.agent, kind: 'agent', name: side.name }, registered: true, bound: side.bound });
    }
    return [...out.values()];
  };

  // Waits held open until something their asker can see changes, answered through the pump or
  // to the HTTP asker that waits for it. A folder's are filed under its binding, as the pump
  // files its asks; those over HTTP under their agent's place, taken up by any keeper.
  const news = createNews(store);
  const waits = createHeldWaits({
    store, perform, news, now, log, dirs: () => pump.keys(), anywhere: [DIRECT_PLACE],
    cap: options.waits, perAgent: options.waitsPerAgent,
  });
  // Test hook, read once: BINDER_TEST_CRASH_AFTER_COMMIT=1 kills this process (SIGKILL) once asks
  // were done and committed, before their answers are appended or sent (docs/reliability.md).
  const crashAfterCommit = process.env.BINDER_TEST_CRASH_AFTER_COMMIT === '1'
    ? () => { process.kill(process.pid, 'SIGKILL'); }
    : undefined;
  const direct = createDirectAsks({ store, perform, waits, now, log, ...(crashAfterCommit ? { crashAfterCommit } : {}) });
  const pump = createFolderPump({
    ...(crashAfterCommit ? { crashAfterCommit } : {}),
    store,
    now,
    sides,
    refresh,
    bind: (dir, key) => store.bindSide(dir, key),
    perform: (op, args, who, want, inside) => perform(op, args, who, want, 'en', inside),
    log,
    hold: (dir, ask, who, at, inside) => waits.hold(dir, ask, who, at, inside),
  });
  waits.answerThrough({
    answerHeld: (dir, ...rest) => (dir.startsWith(DIRECT_PLACE) ? direct : pump).answerHeld(dir, ...rest),
  });
  const hooks = createHookSender({ store, news, now, log, ...(options.hookTimeoutMs ? { timeoutMs: options.hookTimeoutMs } : {}) });
  let adopted: Promise<void> | null = null;
  const adoptOnce = (): Promise<void> => {
    adopted ??= waits.adopt();
    return adopted;
  };

  return {
    store,
    act: (op: string, args: unknown, who: Who, actOptions?: ActOptions): Promise<Answer> => perform(op, args, who, 'json', actOptions?.lang),
    ask: async (who, op, args, askOptions) => {
      await adoptOnce();
      return direct.ask(who, op, args, askOptions);
    },
    onNews: (listener) => news.listen(listener),
    pump: async () => {
      await adoptOnce();
      return pump.pump();
    },
    start: async () => {
      await refresh();
      // The first pass binds and takes the folders this keeper keeps: their held waits are its.
      await pump.start();
      adopted ??= waits.start();
      await adopted;
      hooks.start();
    },
    due: () => store.due(),
    onChange: (listener: (change: Change) => void) => store.onChange(listener),
    onAnswer: (listener) => pump.onAnswer(listener),
    folders: () => pump.folders(),
    close: async () => {
      direct.close();
      await hooks.close();
      waits.close();
      news.close();
      await pump.close();
      if (opened) await store.close();
    },
  };
}
