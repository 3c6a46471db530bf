/**
 * What the screen relies on inside the pinned Ink (src/tui/ink-input.ts): `useStdin()` gives the
 * emitter every `useInput` listens to; Ink hands each read of the terminal to it through the
 * emitter's own `emit('input', chunk)` (so that the input gate can stand in that `emit`), an
 * escape sequence whole; and what is emitted there is what `useInput` hears. A version of Ink that
 * does any of it otherwise fails this test, not a person's keys.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventEmitter } from 'node:events';
import { Text, useInput } from 'ink';
import { render } from 'ink-testing-library';
import { useLayoutEffect } from 'react';
import { useInkInputEvents } from '../../src/tui/ink-input.js';
import { ROOT } from '../helpers/processes.js';
import { until } from '../helpers/temp.js';

test('the Ink installed is the one pinned', () => {
  const pinned = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).dependencies.ink;
  const installed = JSON.parse(readFileSync(join(ROOT, 'node_modules', 'ink', 'package.json'), 'utf8')).version;
  assert.equal(installed, pinned);
});

test('Ink hands each read to its emitter through emit, and useInput hears what is emitted there', async () => {
  const emitted: string[] = [];
  const heard: string[] = [];
  let events: EventEmitter | null = null;
  function Listening() {
    const found = useInkInputEvents();
    useLayoutEffect(() => {
      events = found;
      const own = found.emit;
      found.emit = function recorded(this: EventEmitter, name: string | symbol, ...args: unknown[]): boolean {
        if (name === 'input' && typeof args[0] === 'string') emitted.push(args[0]);
        return own.call(this, name, ...args);
      };
      return () => { found.emit = own; };
    }, [found]);
    useInput((input, key) => { heard.push(key.upArrow ? '↑' : input); });
    return <Text>listening</Text>;
  }
  const ink = render(<Listening />);
  try {
    await until(() => events !== null, 5_000, 'the emitter');
    ink.stdin.write('a');
    await until(() => heard.length === 1, 5_000, 'a read heard');
    ink.stdin.write('\u001b[A');
    await until(() => heard.length === 2, 5_000, 'an arrow heard');
    assert.deepEqual(emitted, ['a', '\u001b[A'], 'each read emitted through emit, an escape sequence whole');
    assert.deepEqual(heard, ['a', '↑']);
    // What the input gate hands on, it emits itself: useInput hears it as a key read.
    events!.emit('input', 'z');
    await until(() => heard.length === 3, 5_000, 'an emitted key heard');
    assert.equal(heard[2], 'z');
  } finally {
    ink.unmount();
  }
});
