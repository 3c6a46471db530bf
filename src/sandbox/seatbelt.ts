/**
 * A sandbox plan as a Seatbelt profile for macOS's `sandbox-exec`: the same rules as on Linux,
 * but for the process namespace, which macOS has not — signals and process information are
 * limited to the sandbox's own processes instead. Later rules win in a profile, so the denials
 * come after the allowances they narrow. Generated and unit-tested; never run by the tests.
 */
import type { SandboxPlan } from './sandbox-plan.js';

/** A path as a profile string: quotes and backslashes escaped, nothing else can break out. */
export const sbplString = (path: string): string => `"${path.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\u0000-\u001f\u007f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`)}"`;

const filter = (path: string, kind: 'dir' | 'file'): string => `(${kind === 'dir' ? 'subpath' : 'literal'} ${sbplString(path)})`;

/** The profile; `tmp` is the agent's own temporary folder (its TMPDIR), writable. */
export function seatbeltProfile(plan: SandboxPlan, tmp: string): string {
  const lines = [
    '(version 1)',
    '(allow default)',
    '; The rest of the file system is read-only.',
    '(deny file-write*)',
    '(allow file-write*',
    ...plan.writable.map((w) => `  ${filter(w.path, 'dir')}`),
    `  ${filter(tmp, 'dir')}`,
    '  (literal "/dev/null") (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+$"))',
    '; What it must not see.',
  ];
  if (plan.hidden.length) {
    lines.push('(deny file-read* file-write* network-outbound', ...plan.hidden.map((h) => `  ${filter(h.path, h.kind)}`));
    lines[lines.length - 1] += ')';
  }
  if (plan.readable.length) {
    lines.push('(allow file-read*', ...plan.readable.map((path) => `  ${filter(path, 'dir')}`));
    lines[lines.length - 1] += ')';
  }
  lines.push(
    "; The person's other processes: not to be signalled, traced or read.",
    '(deny signal process-info*)',
    '(allow signal process-info* (target same-sandbox))',
  );
  return `${lines.join('\n')}\n`;
}
