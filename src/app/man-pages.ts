/**
 * The man pages `binder.1`, `binder-admin.1` and `binder-mcp.1`, written at build time from the
 * commands' own command lines (so from the catalog they are made of): every verb, its
 * arguments, options and example. Text from the catalog is escaped for roff: a line of it never
 * starts a request, and a backslash is a backslash.
 */
import type { Command, Option } from 'commander';
import { program as binderProgram } from '../agent/command-line.js';
import { program as adminProgram } from './admin.js';
import { AGENT_OPERATIONS, OPERATIONS, adminWords } from '../keeper/operations.js';
import { VERSION } from '../version.js';

/** Text as roff shows it: backslashes and hyphens escaped, never a request at a line's start. */
const roff = (text: string): string =>
  text.replace(/\\/g, '\\e').replace(/-/g, '\\-').split('\n').map((line) => (/^[.']/.test(line) ? `\\&${line}` : line)).join('\n');

const bold = (text: string): string => `\\fB${roff(text)}\\fR`;

function header(name: string, summary: string): string[] {
  return [
    `.TH ${name.toUpperCase()} 1 "" "Binder ${VERSION}" "User Commands"`,
    '.SH NAME',
    `${roff(name)} \\- ${roff(summary)}`,
  ];
}

function options(list: readonly Option[]): string[] {
  return list.flatMap((o) => ['.TP', bold(o.flags), roff(o.description + (o.argChoices ? ` (${o.argChoices.join(', ')})` : ''))]);
}

/** The catalog's example of the operation a command line names, where it is one. */
function exampleOf(words: string): string | undefined {
  for (const o of OPERATIONS) {
    if (o.agents && words === `binder ${o.name}`) return o.example;
    if (words === `binder admin ${adminWords(o).join(' ')}`) return o.example.startsWith('binder admin ') ? o.example : o.example.replace(/^binder /, 'binder admin ');
  }
  return undefined;
}

/** The verbs of a command, one `.TP` each: its words, arguments, what it does, its options. */
function verbs(command: Command, prefix: string): string[] {
  const out: string[] = [];
  for (const sub of command.commands) {
    if (sub.name() === 'help') continue;
    const words = `${prefix} ${sub.name()}`.trim();
    const args = sub.registeredArguments.map((a) => (a.required ? `<${a.name()}>` : `[${a.name()}${a.variadic ? '...' : ''}]`));
    if (sub.commands.length) {
      out.push(...verbs(sub, words));
      continue;
    }
    out.push('.TP', `${bold(words)}${args.length ? ` ${roff(args.join(' '))}` : ''}`, roff(sub.description()));
    const own = sub.options.filter((o) => o.long !== '--help');
    const example = exampleOf(words);
    if (own.length || example) out.push('.RS', ...options(own), ...(example ? ['.PP', `Example: ${roff(example)}`] : []), '.RE');
  }
  return out;
}

const EXIT = [
  '.SH EXIT STATUS',
  '0 done; 1 refused (the sentence says what to do instead); 2 no folder, no token or no store; 3 nobody keeps the binder (nothing was changed); 64 not understood; 75 not known whether it was done (ask again with \\-\\-ask\\-id).',
];

export function binderPage(): string {
  const command = binderProgram({ out: () => {}, err: () => {} }, () => {}, AGENT_OPERATIONS);
  return [
    ...header('binder', 'lists of records kept together by people and agents; an agent asks, a keeper answers'),
    '.SH SYNOPSIS',
    `${bold('binder')} [\\fIoptions\\fR] \\fIverb\\fR [\\fIarguments\\fR]`,
    '.br',
    `${bold('binder')} ${bold('tui')} | ${bold('serve')} | ${bold('admin')} | ${bold('init')} | ${bold('completion')} \\fISHELL\\fR`,
    '.SH DESCRIPTION',
    roff(command.description()),
    'An agent asks through its folder (\\fI.binder\\fR) or over HTTP; the keeper (\\fBbinder tui\\fR or \\fBbinder serve\\fR) answers. A person approves what passes a list\'s gate.',
    '.SH OPTIONS',
    ...options(command.options.filter((o) => o.long !== '--help')),
    '.SH VERBS',
    ...verbs(command, 'binder'),
    '.SH A PERSON\'S COMMANDS',
    '.TP', bold('binder init'), 'Set a project\'s directory up for an agent: a list, ./.binder registered and granted.',
    '.TP', bold('binder tui'), 'The screen, which is also the keeper.',
    '.TP', bold('binder serve --no-tui'), 'The keeper alone; \\-\\-http to answer over HTTP too.',
    '.TP', bold('binder admin'), 'A person\'s operations straight on the store: see \\fBbinder\\-admin\\fR(1).',
    '.TP', bold('binder completion bash|zsh|fish'), 'A shell\'s completion script.',
    ...EXIT,
    '.SH ENVIRONMENT',
    '.TP', bold('BINDER_DIR'), 'the folder to ask through',
    '.TP', bold('BINDER_URL'), ', ', bold('BINDER_TOKEN'), 'a binder over HTTP, and the agent\'s token',
    '.TP', bold('BINDER_WAIT_MS'), 'how long to wait for an answer (20000)',
    '.SH SEE ALSO',
    '\\fBbinder\\-admin\\fR(1), \\fBbinder\\-mcp\\fR(1)',
    '',
  ].join('\n');
}

export function adminPage(): string {
  const command = adminProgram(() => {});
  return [
    ...header('binder-admin', 'a person\'s operations on the binder, straight on its store'),
    '.SH SYNOPSIS',
    `${bold('binder admin')} [\\fIoptions\\fR] \\fIcommand\\fR [\\fIarguments\\fR]`,
    '.SH DESCRIPTION',
    roff(command.description()),
    'Whoever can open the store is a person: keep it where agents cannot write.',
    '.SH OPTIONS',
    ...options(command.options.filter((o) => o.long !== '--help')),
    '.SH COMMANDS',
    ...verbs(command, 'binder admin'),
    ...EXIT,
    '.SH FILES',
    '.TP', bold('$XDG_CONFIG_HOME/binder/config.toml'), 'a person\'s defaults: store, lang, list, [serve]; flags and BINDER_* variables win over it (\\fBbinder admin config\\fR says what is in force)',
    '.SH SEE ALSO',
    '\\fBbinder\\fR(1), \\fBbinder\\-mcp\\fR(1)',
    '',
  ].join('\n');
}

export function mcpPage(): string {
  return [
    ...header('binder-mcp', 'Binder\'s verbs as MCP tools, over stdio'),
    '.SH SYNOPSIS',
    `${bold('binder-mcp')} [${bold('--dir')} \\fIFOLDER\\fR | ${bold('--url')} \\fIURL\\fR [${bold('--token-file')} \\fIFILE\\fR]]`,
    '.SH DESCRIPTION',
    'An MCP server on stdin and stdout whose tools are the agent\'s verbs of \\fBbinder\\fR(1). It asks through the folder (\\-\\-dir, else $BINDER_DIR, else the nearest .binder from the working directory up), or a binder over HTTP (\\-\\-url, else $BINDER_URL, with the token in $BINDER_TOKEN or \\-\\-token\\-file). stdout carries JSON\\-RPC alone.',
    '.SH TOOLS',
    ...AGENT_OPERATIONS.flatMap((op) => ['.TP', bold(op.name), roff(op.describe)]),
    '.SH EXAMPLE',
    '.nf',
    roff('claude mcp add binder -- binder-mcp --dir "$PWD/.binder"'),
    '.fi',
    '.SH SEE ALSO',
    '\\fBbinder\\fR(1), \\fBbinder\\-admin\\fR(1)',
    '',
  ].join('\n');
}

/** The pages by file name. */
export function manPages(): Record<string, string> {
  return { 'binder.1': binderPage(), 'binder-admin.1': adminPage(), 'binder-mcp.1': mcpPage() };
}
