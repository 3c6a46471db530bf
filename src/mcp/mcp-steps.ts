/**
 * The steps an answer names, written in MCP's terms: the keeper gives each next step as data
 * (`{op: 'take', args: {next: 'batches'}}`), and through MCP it reads as the tool call to make
 * (`take {"next": "batches"}`), each value as the catalog's argument specs say it is read. Nothing
 * is looked for in the text: someone's words are shown as they were written, whatever they say.
 * A step that is no agent's tool (a person's command) keeps the command line's words.
 */
import { operation, type ArgSpec } from '../keeper/operations.js';
import { commandStep } from '../keeper/step-words.js';
import { isPlaceholder, isStep, written, type Sentence, type Step, type StepValue } from '../store/light.js';

/** A value as a tool call's argument reads: a placeholder (`LIST`) bare, a number as a number. */
function valueOf(arg: ArgSpec | undefined, value: StepValue): string {
  if (isPlaceholder(value)) return value.placeholder;
  if (value === true) return 'true';
  switch (arg?.kind) {
    case 'record': return String(Number(String(value).replace('#', '')));
    case 'number': return String(Number(value));
    default: return JSON.stringify(String(value));
  }
}

/** A step as the MCP tool call to make: `` `show {"list": "batches", "offset": 50}` ``. */
export function toolStep(of: Step): string {
  const op = operation(of.op);
  if (!op?.agents) return commandStep(of);
  const args = Object.entries(of.args).map(([name, value]) => `"${name}": ${valueOf(op.args[name], value)}`).join(', ');
  return `\`${op.name}${args ? ` {${args}}` : ''}\``;
}

/**
 * An answer's words as MCP says them: its sentence, each step a tool call, where the keeper gave
 * one; its text as it is otherwise. A sentence that is not one (an old keeper's, a hand-made
 * answers file) is not trusted: the text is shown.
 */
export function mcpText(text: string, words?: unknown): string {
  if (!Array.isArray(words) || !words.every((part) => typeof part === 'string' || isStep(part))) return text;
  return written(words as Sentence, toolStep);
}
