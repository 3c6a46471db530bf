#!/usr/bin/env node
// The layers of docs/architecture.md, checked on the source: store <- keeper <- the homes two
// faces share (mcp, person) <- faces (agent, http, tui, page, exchange) <- app. A file may import
// its own folder and the layers below it, never a face beside it; outside src/store, the store's
// index alone (or its light part). Prints one line per wrong import and exits 1; `npm test` runs it before the tests.
import { cruise } from 'dependency-cruiser';
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders of src, lowest first; each layer may import the ones before it. */
export const layers = [
  ['store'],
  ['keeper'],
  ['mcp', 'person'],
  ['agent', 'http', 'tui', 'page', 'exchange'],
  ['app', 'sandbox'],
];

/** The forbidden rules, one per folder: every folder of src it may not import. */
export const rules = () => {
  const all = layers.flat();
  return layers.flatMap((layer, at) => layer.map((folder) => {
    const allowed = new Set([...layers.slice(0, at).flat(), folder]);
    return {
      name: `${folder}-imports-above-or-beside`,
      comment: `src/${folder} may import only ${[...allowed].map((f) => `src/${f}`).join(', ')} (docs/architecture.md)`,
      severity: 'error',
      from: { path: `^src/${folder}/` },
      to: { path: `^src/(${all.filter((f) => !allowed.has(f)).join('|')})/` },
    };
  })).filter((rule) => !rule.to.path.includes('()'));
};

// What the check reads of a file is the files it names, nothing else: before the TypeScript
// preset runs, the file becomes one bare import per file it imports, re-exports or loads later,
// types included (Babel would erase `import type`, yet a type taken across layers is a
// dependency all the same). The result is plain enough that dependency-cruiser's parser (ES2020,
// no JSX) reads every line of it, where the whole file would fall to its loose parser.
export const keepTypeImports = ({ types: t }) => ({
  visitor: {
    Program: {
      enter(program) {
        const named = new Set();
        program.traverse({
          ImportDeclaration: (at) => { named.add(at.node.source.value); },
          ExportNamedDeclaration: (at) => { if (at.node.source) named.add(at.node.source.value); },
          ExportAllDeclaration: (at) => { named.add(at.node.source.value); },
          TSImportType: (at) => { const arg = at.node.argument; named.add(arg.type === 'StringLiteral' ? arg.value : arg.literal?.value); },
          CallExpression: (at) => {
            const [first] = at.node.arguments;
            if ((at.node.callee.type === 'Import' || (at.node.callee.type === 'Identifier' && at.node.callee.name === 'require'))
              && first?.type === 'StringLiteral') named.add(first.value);
          },
        });
        named.delete(undefined);
        program.node.body = [...named].sort().map((source) => t.importDeclaration([], t.stringLiteral(source)));
      },
    },
  },
});

// The store has a front door: outside it, code imports its index (or, where bundled apart from
// the engines, the light part the index re-exports, which loads none), never an inner file, so that the
// store's files may move and split without the faces knowing.
export const storeFrontDoor = {
  name: 'store-through-its-index',
  comment: 'outside src/store, import src/store/index.ts (or src/store/light.ts where bundled apart from the engines), never an inner file of the store',
  severity: 'error',
  from: { path: '^src/', pathNot: '^src/store/' },
  to: { path: '^src/store/', pathNot: '^src/store/(index|light)\\.ts$' },
};

// An import the check cannot follow could hide a wrong one: it is an error of its own.
const unresolved = {
  name: 'unresolved',
  comment: 'the check cannot find that file, so cannot tell its layer',
  severity: 'error',
  from: {},
  to: { couldNotResolve: true },
};

/** The wrong imports among `paths`, each as one line for a person. */
export const wrongImports = async (paths, root) => {
  const babelConfig = {
    babelrc: false,
    configFile: false,
    plugins: [keepTypeImports],
    presets: [[createRequire(import.meta.url).resolve('@babel/preset-typescript'), { isTSX: true, allExtensions: true, onlyRemoveTypeImports: true }]],
  };
  const previous = process.cwd();
  process.chdir(root);
  try {
    const result = await cruise(paths, {
      validate: true,
      ruleSet: { forbidden: [...rules(), storeFrontDoor, unresolved] },
      doNotFollow: { path: 'node_modules' },
      exclude: { path: 'node_modules' },
      tsPreCompilationDeps: false,
      parser: 'acorn',
    }, {
      // Imports name the built file (`./words.js`); its source is the .ts or .tsx beside.
      extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'],
      extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
      exportsFields: ['exports'],
      conditionNames: ['import', 'node', 'default'],
    }, { babelConfig });
    return result.output.summary.violations.map((v) =>
      `${v.from} imports ${v.to}, but ${[...rules(), storeFrontDoor, unresolved].find((r) => r.name === v.rule.name)?.comment ?? v.rule.name}`);
  } finally {
    process.chdir(previous);
  }
};

/** The TypeScript files under `folder`, as paths from `root`. */
export const sourceFiles = (root, folder = 'src') =>
  readdirSync(join(root, folder), { recursive: true })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => `${folder}/${f.split(sep).join('/')}`)
    .sort();

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const wrong = await wrongImports(sourceFiles(root), root);
  for (const line of wrong) process.stderr.write(`${line}\n`);
  if (wrong.length) {
    process.stderr.write(`${wrong.length} import(s) break the layers of docs/architecture.md.\n`);
    process.exit(1);
  }
}
