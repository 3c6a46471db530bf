/**
 * `binder completion bash|zsh|fish`: a shell's completion script, made from the commands'
 * own command lines (and so from the catalog they are made of): verbs, sub-verbs, options.
 * List names and states come from the binder at the moment of completing, through the folder
 * (`binder completion names …`, completion-names.ts), where a keeper answers; where none does,
 * nothing is offered. Printed once by a person, never run on the agent's path.
 */
import { Command } from 'commander';
import { program as binderProgram } from '../agent/command-line.js';
import { AGENT_OPERATIONS } from '../keeper/operations.js';
import { program as adminProgram } from './admin.js';
import { serveProgram } from './serve.js';
import { program as initProgram } from './init.js';
import { TUI_OPTIONS } from './tui-options.js';
import { addHttpOptions } from '../http/start.js';

/** One command's place in the tree: its path (`binder admin side`), what may follow it. */
interface Place {
  path: string;
  words: string[];
  options: string[];
  /** Options that take a value, with what the value is (`--state` → STATE). */
  valued: Record<string, string>;
  /** What each positional word is, in order (LIST, ID, STATE…). */
  positional: string[];
}

/** A value's name as a command's help shows it: `<LIST>` or `[TITLE...]` → LIST, TITLE. */
const valueName = (flags: string): string => (/[<[]([^>\]]+?)(\.\.\.)?[>\]]/.exec(flags)?.[1] ?? '').toUpperCase();

function walk(command: Command, path: string, into: Place[]): void {
  const subs = command.commands.filter((c) => c.name() !== 'help');
  const valued: Record<string, string> = {};
  for (const o of command.options) if (o.long && (o.required || o.optional)) valued[o.long] = valueName(o.flags);
  into.push({
    path,
    words: subs.map((c) => c.name()),
    options: command.options.map((o) => o.long).filter((l): l is string => !!l),
    valued,
    positional: command.registeredArguments.map((a) => a.name().toUpperCase()),
  });
  for (const sub of subs) walk(sub, `${path} ${sub.name()}`, into);
}

/** The whole tree of `binder`'s commands: the agent's verbs and a person's. */
export function commandTree(): Place[] {
  const places: Place[] = [];
  const silent = { out: () => {}, err: () => {} };
  const top = binderProgram(silent, () => {}, AGENT_OPERATIONS);
  walk(top, 'binder', places);
  const person: Array<[string, Command]> = [
    ['admin', adminProgram(() => {})], ['serve', serveProgram()], ['init', initProgram(() => {})],
  ];
  for (const [word, command] of person) walk(command, `binder ${word}`, places);
  // The screen reads its command line in its own bundle (tui-options.ts): its options are said here as commander's.
  const tui = new Command('binder tui');
  for (const flags of TUI_OPTIONS) tui.option(flags);
  walk(addHttpOptions(tui), 'binder tui', places);
  places.push({ path: 'binder completion', words: ['bash', 'zsh', 'fish'], options: [], valued: {}, positional: [] });
  places[0]!.words.push(...person.map(([word]) => word), 'tui', 'completion');
  return places;
}

/** A word as bash reads it inside double quotes. */
const quoted = (text: string): string => `"${text.replace(/["\\$`]/g, (c) => `\\${c}`)}"`;

/** The bash script; zsh runs it through bashcompinit. */
export function bashScript(places: readonly Place[] = commandTree()): string {
  const table = (name: string, value: (p: Place) => string): string =>
    `declare -gA ${name}=(\n${places.map((p) => `  [${quoted(p.path)}]=${quoted(value(p))}`).join('\n')}\n)`;
  return `# binder's completion for bash, made by binder completion bash (${places.length} commands).
${table('_binder_words', (p) => p.words.join(' '))}
${table('_binder_options', (p) => p.options.join(' '))}
${table('_binder_valued', (p) => Object.entries(p.valued).map(([o, v]) => `${o}=${v}`).join(' '))}
${table('_binder_positional', (p) => p.positional.join(' '))}

# What a value is (LIST, STATE, ID…), offered from the binder where a keeper answers.
_binder_values() {
  local kind=$1 cur=$2 first=$3
  case $kind in
    LIST) COMPREPLY=($(compgen -W "$(binder completion names lists 2>/dev/null)" -- "$cur")) ;;
    STATE) COMPREPLY=($(compgen -W "$(binder completion names states "$first" 2>/dev/null)" -- "$cur")) ;;
    *FILE*|*DIR*|FOLDER) COMPREPLY=($(compgen -f -- "$cur")) ;;
    *) COMPREPLY=() ;;
  esac
}

_binder() {
  local cur=\${COMP_WORDS[COMP_CWORD]} prev=\${COMP_WORDS[COMP_CWORD-1]} path=binder top=binder i w n=0 first= want
  for ((i = 1; i < COMP_CWORD; i++)); do
    w=\${COMP_WORDS[i]}
    if [[ $w == -* ]]; then
      [[ $w != *=* && " \${_binder_valued[$path]} \${_binder_valued[$top]} " == *" $w="* ]] && ((i++))
    elif ((n == 0)) && [[ " \${_binder_words[$path]} " == *" $w "* ]]; then
      path="$path $w"
      # binder admin's own options hold after any of its verbs, as --dir and --json after binder's.
      [[ $path == "binder admin" ]] && top=$path
    else
      ((n == 0)) && first=$w
      ((n++))
    fi
  done
  want=" \${_binder_valued[$path]} \${_binder_valued[$top]} "
  if [[ $prev == -* && $want == *" $prev="* ]]; then
    want=\${want#*" $prev="}
    _binder_values "\${want%% *}" "$cur" "$first"
    return
  fi
  if [[ $cur == -* ]]; then
    [[ $top == "$path" ]] && top=
    COMPREPLY=($(compgen -W "\${_binder_options[$path]} \${top:+\${_binder_options[$top]}}" -- "$cur"))
    return
  fi
  if ((n == 0)) && [[ -n \${_binder_words[$path]} ]]; then
    COMPREPLY=($(compgen -W "\${_binder_words[$path]}" -- "$cur"))
    return
  fi
  local kinds=(\${_binder_positional[$path]})
  _binder_values "\${kinds[n]:-\${kinds[-1]}}" "$cur" "$first"
}
complete -F _binder binder
`;
}

export function zshScript(): string {
  return `#compdef binder
# binder's completion for zsh, made by binder completion zsh: bash's, through bashcompinit.
autoload -U +X bashcompinit && bashcompinit
${bashScript().replace(/^# binder's completion for bash.*\n/, '')}`;
}

/** The fish script: verbs and options by where they are; list names and states from the binder. */
export function fishScript(places: readonly Place[] = commandTree()): string {
  const lines = ['# binder\'s completion for fish, made by binder completion fish.', 'complete -c binder -f'];
  const fishWord = (text: string): string => `'${text.replace(/['\\]/g, (c) => `\\${c}`)}'`;
  for (const place of places) {
    const words = place.path.split(' ').slice(1);
    const seen = words.length === 0 ? '__fish_use_subcommand'
      : `__fish_seen_subcommand_from ${words[words.length - 1]}`;
    if (place.words.length) lines.push(`complete -c binder -n ${fishWord(seen)} -a ${fishWord(place.words.join(' '))}`);
    for (const option of place.options) {
      const value = place.valued[option];
      const values = value === 'LIST' ? ' -a \'(binder completion names lists 2>/dev/null)\''
        : value === 'STATE' ? ' -a \'(binder completion names states 2>/dev/null)\'' : '';
      lines.push(`complete -c binder -n ${fishWord(seen)} -l ${option.slice(2)}${value ? ' -r' : ''}${values}`);
    }
    if (place.positional[0] === 'LIST') lines.push(`complete -c binder -n ${fishWord(seen)} -a '(binder completion names lists 2>/dev/null)'`);
  }
  return `${lines.join('\n')}\n`;
}

/** `binder completion SHELL`: the script on stdout; resolves with the exit code. */
export function completion(argv: readonly string[]): number {
  const shell = argv[0];
  const script = shell === 'bash' ? bashScript() : shell === 'zsh' ? zshScript() : shell === 'fish' ? fishScript() : null;
  if (script === null) {
    process.stderr.write('binder completion takes the shell: bash, zsh or fish. In ~/.bashrc: source <(binder completion bash)\n');
    return 64;
  }
  process.stdout.write(script);
  return 0;
}
