/**
 * A dialog answered (Enter in a form or a pick, `y` to a question): the one act it means, done
 * through the keeper as the person, and what the screen does after (a list made is opened, a
 * record deleted is left). What the screen checks itself before asking the keeper, it checks
 * only to say it better or to do what the keeper cannot: a due date's example relative to
 * today, `~` in a folder, a folder made when asked. A refused form stays open.
 */
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Answer } from '../../keeper/protocol.js';
import { type List, readDue, type Side } from '../../store/index.js';
import { safe } from '../../person/format.js';
import { actOf, createListForm, exampleDay, expandHome, needsActs, numberTyped, type Act } from '../../person/form.js';
import type { Action } from '../screen-reducer.js';
import type { Dialog, Screen } from '../../person/screen-state.js';
import type { Words } from '../../person/words.js';
import { START } from '../../person/window.js';

export interface SubmitDeps {
  dialog: Dialog;
  screen: Screen | null;
  dispatch: (action: Action) => void;
  act: (one: Act) => Promise<Answer>;
  say: (text: string, tone: 'done' | 'refused' | 'info') => void;
  words: Words;
  now: number;
  /** The binder had no list before this act (the first list made opens to the first agent folder). */
  wasEmpty: boolean;
  made: (answer: Answer, wasEmpty: boolean) => Promise<void>;
  /** The person's latest change taken back (they said yes to what it withdraws). */
  undo: () => Promise<void>;
}

/** The form's field named `name`, focused (to show where the problem is). */
function focusOn(dialog: Extract<Dialog, { kind: 'form' }>, name: string, dispatch: (action: Action) => void): void {
  const at = dialog.fields.findIndex((f) => f.name === name);
  if (at >= 0 && at !== dialog.focus) dispatch({ type: 'form-focus', delta: at - dialog.focus });
}

/**
 * A side-add form's folder: `~` expanded, a relative path read from where the screen was started
 * (the keeper takes absolute paths only); made when asked; a sentence when it is not there or not a folder.
 */
function sideFolder(dialog: Extract<Dialog, { kind: 'form' }>, deps: SubmitDeps): string | null {
  const { words, say, dispatch } = deps;
  const dir = expandHome(dialog.values.dir ?? '', process.env.HOME);
  if (!dir) return dir;
  if (!existsSync(dir)) {
    if (dialog.values.create !== 'yes') {
      say(words.say.folderMissing(safe(dir)), 'refused');
      focusOn(dialog, 'create', dispatch);
      return null;
    }
    try {
      mkdirSync(dir, { recursive: true });
    } catch (error) {
      say(safe(error instanceof Error ? error.message : String(error)), 'refused');
      return null;
    }
  } else if (!statSync(dir).isDirectory()) {
    say(words.say.notAFolder(safe(dir)), 'refused');
    focusOn(dialog, 'dir', dispatch);
    return null;
  }
  return resolve(dir);
}

export async function submitDialog(deps: SubmitDeps): Promise<void> {
  const { dialog, screen, dispatch, act, say, words } = deps;
  if (dialog.kind === 'pick') {
    const choice = dialog.choices[dialog.at];
    dispatch({ type: 'dialog', dialog: null });
    if (!choice) return;
    if (dialog.intent.do === 'filter-state') dispatch({ type: 'filters', patch: { state: choice.value || null } });
    else if (dialog.intent.do === 'template') dispatch({ type: 'dialog', dialog: createListForm(choice.value, choice.label, words) });
    else {
      const one = actOf(dialog, choice.value);
      const answer = one ? await act(one) : null;
      // A record deleted (with what lay under it) is left, as a yes to its deletion leaves it.
      if (answer?.ok && one?.op === 'delete' && screen?.kind === 'record') dispatch({ type: 'pop' });
    }
    return;
  }
  if (dialog.kind === 'confirm' && dialog.typed && dialog.typed.value.trim().toLowerCase() !== dialog.typed.expect.trim().toLowerCase()) {
    dispatch({ type: 'dialog', dialog: null });
    say(words.say.sameTitle, 'info');
    return;
  }
  if (dialog.kind === 'form' && dialog.intent.do === 'filter-text') {
    dispatch({ type: 'dialog', dialog: null });
    dispatch({ type: 'filters', patch: { text: (dialog.values.text ?? '').trim() } });
    return;
  }
  if (dialog.kind === 'form' && (dialog.intent.do === 'add' || dialog.intent.do === 'edit')) {
    const due = (dialog.values.due ?? '').trim();
    if (due && due !== dialog.initial.due && readDue(due).kind === 'bad') {
      say(words.say.badDue(safe(due.slice(0, 40)), exampleDay(deps.now)), 'refused');
      focusOn(dialog, 'due', dispatch);
      return;
    }
  }
  if (dialog.kind === 'form' && dialog.intent.do === 'go-to') {
    const id = numberTyped(dialog.values.id);
    if (id === null) {
      say(words.say.notANumber(safe((dialog.values.id ?? '').slice(0, 40))), 'refused');
      return;
    }
    dispatch({ type: 'dialog', dialog: null });
    // The record opened from wherever the person was: one that is not there says so, Esc comes back.
    dispatch({ type: 'push', screen: { kind: 'record', id, cursor: START } });
    return;
  }
  if (dialog.intent.do === 'undo') {
    dispatch({ type: 'dialog', dialog: null });
    await deps.undo();
    return;
  }
  if (dialog.kind === 'form' && dialog.intent.do === 'needs') {
    // Needs added, then needs taken away: the form stays open on the first refusal, its sentence said.
    for (const each of needsActs(dialog)) if (!(await act(each)).ok) return;
    dispatch({ type: 'dialog', dialog: null });
    return;
  }
  let one = actOf(dialog);
  if (one && dialog.kind === 'form' && dialog.intent.do === 'side-add') {
    const dir = sideFolder(dialog, deps);
    if (dir === null) return;
    one = { ...one, args: { ...one.args, dir } };
  }
  // A list made from a template speaks the screen's language (its states and fields), as on the first run.
  if (one?.op === 'create-list') one = { ...one, args: { ...one.args, lang: words.lang } };
  if (!one) {
    dispatch({ type: 'dialog', dialog: null });
    return;
  }
  // Closed at once: a second Enter while the answer comes must not do it twice.
  if (dialog.kind !== 'form') dispatch({ type: 'dialog', dialog: null });
  const answer = await act(one);
  if (answer.ok || dialog.kind !== 'form') dispatch({ type: 'dialog', dialog: null });
  if (!answer.ok) return;
  if (one.op === 'create-list') await deps.made(answer, deps.wasEmpty);
  if (one.op === 'delete' && screen?.kind === 'record') dispatch({ type: 'pop' });
  if (one.op === 'delete-list') dispatch({ type: 'show-list', list: null });
  if (one.op === 'side-add' && dialog.kind === 'form' && dialog.values.create === 'yes') {
    const dir = safe(String(one.args.dir));
    const added = (answer.data as Side | undefined)?.again ? words.done.sideBoundAgain : words.done.sideAdded;
    say(`${words.say.folderMade(dir)} ${added(safe(String(one.args.name)), dir)}`, 'done');
  }
}

/** The list an answer made, if it made one. */
export const madeList = (answer: Answer): List | null => {
  const list = answer.data as List | undefined;
  return answer.ok && list?.id ? list : null;
};
