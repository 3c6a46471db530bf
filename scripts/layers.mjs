#!/usr/bin/env node
// The layers of docs/architecture.md, checked on the source: store <- keeper <- the homes two
// faces share (mcp, person) <- faces (agent, http, tui, page, exchange) <- app. A file may import
// its own folder and the layers below it, never a face beside it. Prints one line per wrong
// import and exits 1; `npm test` runs it before the tests.
import { cruise } from 'dependency-cruiser';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Folders of src, lowest first; each layer may import the ones before it. */
export const layers = [
  ['store'],
  ['keeper'],
  ['mcp', 'person'],
  ['agent', 'http', 'tui', 'page', 'exchange'],
  ['app'],
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

// Babel erases `import type`, yet a type taken across layers is still a dependency: before the
// TypeScript preset runs, each import or re-export that is only types becomes a bare import of
// the same file, which the check sees.
const keepTypeImports = ({ types: t }) => ({
  visitor: {
    Program: {
      enter(program) {
        for (const statement of program.get('body')) {
          const node = statement.node;
          const onlyTypes = (node.type === 'ImportDeclaration' && (node.importKind === 'type'
              || (node.specifiers.length > 0 && node.specifiers.every((s) => s.importKind === 'type'))))
            || ((node.type === 'ExportNamedDeclaration' || node.type === 'ExportAllDeclaration') && node.source
              && (node.exportKind === 'type' || (node.specifiers?.length > 0 && node.specifiers.every((s) => s.exportKind === 'type'))));
          if (onlyTypes) statement.insertBefore(t.importDeclaration([], t.stringLiteral(node.source.value)));
        }
      },
    },
  },
});

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
      ruleSet: { forbidden: rules() },
      doNotFollow: { path: 'node_modules' },
      exclude: { path: 'node_modules' },
      tsPreCompilationDeps: false,
      parser: 'acorn',
    }, { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] }, { babelConfig });
    return result.output.summary.violations.map((v) =>
      `${v.from} imports ${v.to}, but ${rules().find((r) => r.name === v.rule.name)?.comment ?? v.rule.name}`);
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
  // Imports that broke the layers before the check existed, each to be moved away; the file may
  // only shrink: a line no longer true must go too.
  const allowanceFile = join(root, 'scripts', 'layers-allowed.txt');
  const allowed = new Set(readFileSync(allowanceFile, 'utf8').split('\n').filter((l) => l && !l.startsWith('#')));
  const wrong = await wrongImports(sourceFiles(root), root);
  const fresh = wrong.filter((line) => !allowed.has(line.split(', but ')[0]));
  const gone = [...allowed].filter((pair) => !wrong.some((line) => line.startsWith(`${pair}, but `)));
  for (const line of fresh) process.stderr.write(`${line}\n`);
  for (const pair of gone) process.stderr.write(`${pair} no longer holds: take it out of scripts/layers-allowed.txt\n`);
  if (fresh.length || gone.length) {
    process.stderr.write(`The layers of docs/architecture.md are broken (${fresh.length} wrong import(s), ${gone.length} stale allowance(s)).\n`);
    process.exit(1);
  }
}
