#!/usr/bin/env node
// Small files and small functions, checked on the source: no file of src over 400 lines and no
// function over 150, where a function is counted whole with the closures inside it (a factory
// of closures is one function). Tests are not held to it, nor tables of data (DATA below). What
// was larger before the check is listed in scripts/sizes-allowed.txt with its size then; that
// list may only shrink: an entry may not grow, and one that fits now must go.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const FILE_MAX = 400;
export const FUNCTION_MAX = 150;
/** Files that are tables of data (words, in each language), not code. */
const DATA = new Set(['src/person/words-en.ts', 'src/person/words-fr.ts']);

const { parseSync } = createRequire(import.meta.url)('@babel/core');

const FUNCTIONS = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression', 'ObjectMethod', 'ClassMethod', 'ClassPrivateMethod']);

/** A function's name as a reader finds it: its own, or the name it is given to. */
const nameOf = (node, parent) =>
  node.id?.name ?? node.key?.name ?? node.key?.value
    ?? (parent?.type === 'VariableDeclarator' ? parent.id.name : undefined)
    ?? ((parent?.type === 'ObjectProperty' || parent?.type === 'ClassProperty') ? parent.key.name ?? parent.key.value : undefined)
    ?? `(function at line ${node.loc.start.line})`;

/** The outermost functions of a parsed file, each with its name and its length in lines. */
const outermostFunctions = (ast) => {
  const found = [];
  const visit = (node, parent) => {
    if (!node || typeof node.type !== 'string') return;
    if (FUNCTIONS.has(node.type)) {
      found.push({ name: nameOf(node, parent), lines: node.loc.end.line - node.loc.start.line + 1 });
      return;
    }
    for (const [key, value] of Object.entries(node)) {
      if (key === 'loc' || key === 'leadingComments' || key === 'trailingComments' || key === 'innerComments') continue;
      if (Array.isArray(value)) for (const child of value) visit(child, node);
      else if (value && typeof value === 'object') visit(value, node);
    }
  };
  visit(ast.program, null);
  return found;
};

/** Every file and function of `paths` (from `root`) over its size, as `path` or `path name` with its lines. */
export const oversized = (paths, root) => paths.flatMap((path) => {
  if (DATA.has(path)) return [];
  const text = readFileSync(join(root, path), 'utf8');
  const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
  const ast = parseSync(text, {
    babelrc: false, configFile: false, filename: path, sourceType: 'module',
    parserOpts: { plugins: ['typescript', ...(path.endsWith('.tsx') ? ['jsx'] : [])] },
  });
  return [
    ...(lines > FILE_MAX ? [{ what: path, lines, max: FILE_MAX }] : []),
    ...outermostFunctions(ast).filter((f) => f.lines > FUNCTION_MAX).map((f) => ({ what: `${path} ${f.name}`, lines: f.lines, max: FUNCTION_MAX })),
  ];
});

/** The TypeScript files under src, as paths from `root`. */
const sourceFiles = (root) =>
  readdirSync(join(root, 'src'), { recursive: true })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => `src/${f.split(sep).join('/')}`)
    .sort();

/** What breaks the sizes, one sentence a line, given the allowance (what -> lines). */
export const sizeProblems = (found, allowed) => [
  ...found.filter((o) => !allowed.has(o.what) || o.lines > allowed.get(o.what)).map((o) => allowed.has(o.what)
    ? `${o.what} has grown to ${o.lines} lines (allowed ${allowed.get(o.what)} while it shrinks to ${o.max})`
    : `${o.what} is ${o.lines} lines, over ${o.max}`),
  ...[...allowed.keys()].filter((what) => !found.some((o) => o.what === what))
    .map((what) => `${what} fits now: take it out of scripts/sizes-allowed.txt`),
];

/** The allowance file: `lines what` a line, `#` for comments. */
export const readAllowance = (text) => new Map(text.split('\n').filter((l) => l.trim() && !l.startsWith('#')).map((l) => {
  const [lines, ...what] = l.trim().split(' ');
  return [what.join(' '), Number(lines)];
}));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const found = oversized(sourceFiles(root), root);
  if (process.argv[2] === '--list') {
    for (const o of found.sort((a, b) => b.lines - a.lines)) process.stdout.write(`${o.lines} ${o.what}\n`);
    process.exit(0);
  }
  const problems = sizeProblems(found, readAllowance(readFileSync(join(root, 'scripts', 'sizes-allowed.txt'), 'utf8')));
  for (const line of problems) process.stderr.write(`${line}\n`);
  if (problems.length) {
    process.stderr.write(`${problems.length} size problem(s): files stay within ${FILE_MAX} lines, functions within ${FUNCTION_MAX} (docs/architecture.md).\n`);
    process.exit(1);
  }
}
