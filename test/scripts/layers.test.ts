/**
 * The rule of the layers (scripts/layers.mjs), run by `npm test`: a deliberately wrong import
 * fails it, a type-only import across layers counts as much as a value's, an import downwards
 * passes, and the tree itself holds them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/processes.js';
import { tempDir } from '../helpers/temp.js';

interface Layers {
  wrongImports(paths: string[], root: string): Promise<string[]>;
  sourceFiles(root: string, folder?: string): string[];
}
const layers = (): Promise<Layers> => import(pathToFileURL(join(ROOT, 'scripts', 'layers.mjs')).href) as Promise<Layers>;

/** A small tree of source files, each given as path and text. */
function tree(root: string, files: Record<string, string>): string[] {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return Object.keys(files);
}

test('an import upwards or beside is wrong, loaded later or written among JSX and new syntax, with a line that names both files and the rule', async (t) => {
  const root = tempDir(t);
  const { wrongImports } = await layers();
  const paths = tree(root, {
    'src/store/index.ts': 'export const rule = 1;\n',
    'src/keeper/catalog.ts': "import { rule } from '../store/index.js';\nimport { listen } from '../http/start.js';\nexport const op = rule + listen;\n",
    'src/http/start.ts': "import { op } from '../keeper/catalog.js';\nexport const listen = 2;\nexport const both = op;\n",
    'src/page/view.tsx': "import { listen } from '../http/start.js';\nexport const View = () => <p>{listen}</p>;\n",
    'src/keeper/later.tsx': "class Late { #n = 1; static { void 0; } n = () => this.#n ??= 2; }\nexport const Box = () => <b>{new Late().n()}</b>;\nexport const later = () => import('../tui/screen.js');\n",
    'src/tui/screen.ts': 'export const screen = 3;\n',
    'src/app/main.ts': "import { View } from '../page/view.js';\nimport { listen } from '../http/start.js';\nexport { View, listen };\n",
  });
  const wrong = await wrongImports(paths, root);
  assert.deepEqual(wrong.map((line) => line.split(', but ')[0]).sort(), [
    'src/keeper/catalog.ts imports src/http/start.ts',
    'src/keeper/later.tsx imports src/tui/screen.ts',
    'src/page/view.tsx imports src/http/start.ts',
  ]);
  assert.match(wrong.find((l) => l.startsWith('src/keeper'))!, /src\/keeper may import only src\/store, src\/keeper \(docs\/architecture\.md\)$/);
});

test('a type-only import across the layers is a dependency too', async (t) => {
  const root = tempDir(t);
  const { wrongImports } = await layers();
  const paths = tree(root, {
    'src/tui/rows.ts': 'export interface Row { id: number }\nexport type Rows = Row[];\n',
    'src/page/a.ts': "import type { Row } from '../tui/rows.js';\nexport const a = (r: Row) => r.id;\n",
    'src/page/b.ts': "import { type Rows } from '../tui/rows.js';\nexport const b = (r: Rows) => r.length;\n",
    'src/page/c.ts': "export type { Row } from '../tui/rows.js';\n",
    'src/store/d.ts': "export type { Rows } from '../keeper/e.js';\n",
    'src/keeper/e.ts': 'export type Rows = number[];\n',
  });
  const wrong = await wrongImports(paths, root);
  assert.deepEqual(wrong.map((line) => line.split(', but ')[0]).sort(), [
    'src/page/a.ts imports src/tui/rows.ts',
    'src/page/b.ts imports src/tui/rows.ts',
    'src/page/c.ts imports src/tui/rows.ts',
    'src/store/d.ts imports src/keeper/e.ts',
  ]);
});

test('an import the check cannot follow is an error, not a pass', async (t) => {
  const root = tempDir(t);
  const { wrongImports } = await layers();
  const paths = tree(root, { 'src/keeper/a.ts': "import { gone } from '../http/gone.js';\nexport const a = gone;\n" });
  assert.deepEqual(await wrongImports(paths, root), [
    'src/keeper/a.ts imports ../http/gone.js, but the check cannot find that file, so cannot tell its layer',
  ]);
});

test('outside the store, an import of an inner file of it is wrong, a type\'s too; its index and light part are right, and inside it anything', async (t) => {
  const root = tempDir(t);
  const { wrongImports } = await layers();
  const paths = tree(root, {
    'src/store/rules.ts': 'export const rule = 1;\nexport type Rule = number;\n',
    'src/store/light.ts': "export { rule } from './rules.js';\n",
    'src/store/index.ts': "export * from './light.js';\nexport type { Rule } from './rules.js';\n",
    'src/store/sql/engine.ts': "import { rule } from '../rules.js';\nexport const engine = rule;\n",
    'src/keeper/catalog.ts': "import { rule } from '../store/rules.js';\nimport { engine } from '../store/sql/engine.js';\nexport const op = rule + engine;\n",
    'src/keeper/typed.ts': "import type { Rule } from '../store/rules.js';\nexport const typed = (r: Rule) => r;\n",
    'src/keeper/right.ts': "import type { Rule } from '../store/index.js';\nimport { rule } from '../store/index.js';\nexport const right = (r: Rule) => r + rule;\n",
    'src/agent/light.ts': "import { rule } from '../store/light.js';\nexport const light = rule;\n",
    'src/app/main.ts': "import { rule } from '../store/rules.js';\nexport const main = rule;\n",
  });
  const wrong = await wrongImports(paths, root);
  assert.deepEqual(wrong.map((line) => line.split(', but ')[0]).sort(), [
    'src/app/main.ts imports src/store/rules.ts',
    'src/keeper/catalog.ts imports src/store/rules.ts',
    'src/keeper/catalog.ts imports src/store/sql/engine.ts',
    'src/keeper/typed.ts imports src/store/rules.ts',
  ]);
  assert.match(wrong[0]!, /import src\/store\/index\.ts \(or src\/store\/light\.ts where bundled apart from the engines\), never an inner file of the store$/);
});

test('the tree holds the layers', () => {
  const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'layers.mjs')], { encoding: 'utf8' });
  assert.equal(run.stderr, '');
  assert.equal(run.status, 0);
});
