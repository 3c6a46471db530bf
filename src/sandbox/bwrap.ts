/**
 * A sandbox plan as bubblewrap's command line (Linux). The order is the point: the whole file
 * system read-only, then a private /tmp, then what the agent may write, then what it must not
 * see (so the store stays hidden even inside a writable folder), then what it may read again.
 */
import { sep } from 'node:path';
import type { SandboxPlan } from './sandbox-plan.js';

const within = (path: string, above: string): boolean => path === above || path.startsWith(above.endsWith(sep) ? above : above + sep);

/**
 * bubblewrap's arguments before the agent's command. `filterFd` is where bubblewrap reads the
 * filter that refuses pushing keys into the terminal (seccomp.ts); without one, the agent gets a
 * session of its own instead, which refuses the same at the cost of Ctrl-C and job control.
 */
export function bwrapArgs(plan: SandboxPlan, filterFd?: number, programs: readonly string[] = []): string[] {
  const args = [
    '--ro-bind', '/', '/',
    '--dev', '/dev',
    // Its own process namespace, with a /proc of its own: the person's processes are not there.
    '--unshare-pid', '--unshare-ipc', '--proc', '/proc',
    '--tmpfs', '/tmp',
    '--die-with-parent',
    ...(filterFd === undefined ? ['--new-session'] : ['--seccomp', String(filterFd)]),
  ];
  // Binder's own program (and Node) where they sit under /tmp, as a clone tried out there: shown
  // again read-only over the private /tmp, or the agent would find no `binder` inside.
  for (const path of programs) if (within(path, '/tmp') && path !== '/tmp') args.push('--ro-bind', path, path);
  for (const { path } of plan.writable) args.push('--bind', path, path);
  for (const hidden of plan.hidden) {
    // Under the private /tmp and outside what was bound there, it is hidden already.
    if (within(hidden.path, '/tmp') && !plan.writable.some((w) => within(hidden.path, w.path)) && !programs.some((p) => within(hidden.path, p))) continue;
    if (hidden.kind === 'dir') args.push('--tmpfs', hidden.path, '--remount-ro', hidden.path);
    else args.push('--ro-bind', '/dev/null', hidden.path);
  }
  for (const path of plan.readable) args.push('--ro-bind', path, path);
  args.push('--chdir', plan.work, '--');
  return args;
}
