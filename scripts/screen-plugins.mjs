// The screen's bundle only: esbuild plugins that keep its first frame short. Each stands in for
// one module of Ink or its helpers inside that bundle, never in node_modules, and says why above
// it; those that rewrite a module's source stop the build if that source is not as expected.
// Used by scripts/build.mjs.
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * What the rewrites of Ink's own modules (below) look for in `ink/build/<file>`, as the pinned Ink
 * writes it: the build stops if one is not there, and test/tui/ink-rewrites.test.ts checks them
 * against node_modules/ink, so that a new Ink is met by a failing test before a failing build.
 */
export const INK_REWRITES = {
  // When DEV is true: the devtools' import, and Ink's package.json read.
  'reconciler.js': [
    /\nif \(isDev\(\)\) \{\n\s+try \{\n\s+await import\('\.\/devtools\.js'\);\n[\s\S]*?\n\}\n/,
    /isDev\(\)\s*\?\s*await loadPackageJson\(\)\s*:\s*/,
  ],
  // A row's cells made, and joined back into text.
  'output.js': [
    'cached = styledCharsFromTokens(tokenize(line));',
    'return styledCharsToString(lineWithoutEmptyItems).trimEnd();',
  ],
};

// Ink's layout engine (yoga-layout) readies its WebAssembly with a top-level await, which only a
// module may have: the screen's bundle could then not be CommonJS nor start from a code cache.
// In the screen's bundle, yoga's entry is this one instead: the same engine, compiled and
// instantiated at once from the same bytes, before the first line of Ink runs.
const yogaAtOnce = {
  name: 'yoga-at-once',
  setup(b) {
    b.onResolve({ filter: /^yoga-layout$/ }, async (args) => {
      if (args.pluginData === 'yoga-itself') return undefined;
      const entry = await b.resolve('yoga-layout', { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'yoga-itself' });
      return entry.errors.length ? { errors: entry.errors } : { path: entry.path, namespace: 'yoga-at-once' };
    });
    b.onLoad({ filter: /.*/, namespace: 'yoga-at-once' }, (args) => ({
      contents: `import loadYoga, { wasmBase64 } from '../binaries/yoga-wasm-base64-esm.js';
import wrapAssembly from './wrapAssembly.js';
export * from './generated/YGEnums.js';
const engine = {
  instantiateWasm(imports, receive) {
    receive(new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(wasmBase64, 'base64')), imports));
    return {};
  },
};
loadYoga(engine);
if (!engine.Node) throw new Error('yoga-layout was not ready at once: its loader has changed (scripts/screen-plugins.mjs)');
export default wrapAssembly(engine);
`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
    // The bytes, once: taken out of the loader's data: URL, which it then never reads.
    b.onLoad({ filter: /[\\/]yoga-layout[\\/]dist[\\/]binaries[\\/]yoga-wasm-base64-esm\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const url = source.match(/"data:application\/octet-stream;base64,([A-Za-z0-9+/=]+)"/);
      if (!url) throw new Error(`${args.path} no longer holds its WebAssembly as a data: URL (scripts/screen-plugins.mjs)`);
      return { contents: `${source.replace(url[0], '""')}\nexport const wasmBase64 = "${url[1]}";\n`, loader: 'js' };
    });
  },
};
// When DEV=true, Ink imports its devtools (and their WebSocket client, `ws`) and reads its own
// package.json, each with a top-level await; the screen never runs in that mode. Both are taken
// out of Ink's reconciler in the bundle, as if DEV were never true.
const noInkDevtools = {
  name: 'no-ink-devtools',
  setup(b) {
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]reconciler\.js$/ }, (args) => {
      let source = readFileSync(args.path, 'utf8');
      for (const part of INK_REWRITES['reconciler.js']) {
        if (!part.test(source)) throw new Error(`${args.path} no longer reads as scripts/screen-plugins.mjs expects (${part})`);
        source = source.replace(part, (found) => (found.startsWith('\n') ? '\n' : ''));
      }
      return { contents: source, loader: 'js' };
    });
  },
};
// The keeper's dispatch validates with zod, whose classes and the catalog's schemas take tens of
// milliseconds to build: in the screen's bundle the dispatch is built once the process is first
// idle (after the first frame, which the screen draws as it starts), or at its first use if that
// comes sooner (an agent's ask, the person's first change), synchronously, so nothing waits on
// anything but itself. Only `createPerform`, as the keeper calls it, is stood in for.
const performWhenAsked = {
  name: 'perform-when-asked',
  setup(b) {
    b.onResolve({ filter: /^\.\/perform\.js$/ }, (args) =>
      args.importer === join(root, 'src', 'keeper', 'keeper.ts')
        ? { path: join(root, 'src', 'keeper', 'perform.ts'), namespace: 'perform-when-asked' }
        : undefined);
    b.onLoad({ filter: /.*/, namespace: 'perform-when-asked' }, (args) => ({
      contents: `export function createPerform(...given) {
  let perform;
  const built = () => (perform ??= require(${JSON.stringify(args.path)}).createPerform(...given));
  setTimeout(built, 0).unref();
  return (...asked) => built()(...asked);
}
`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};
// Ink measures every row of every frame with `string-width`, which segments any row beyond ASCII
// and builds its emoji expression on first use: tens of milliseconds of the first frame, for
// rows (`▸ Lists`, `Binder · Tasks`, a state in its colour) that need none of it. In the screen's
// bundle, Ink's `string-width` first asks `styledWidth` (src/person/text-width.ts, checked
// against this very copy by its test) and loads the real one only for a row it leaves.
const widthWhenNeeded = {
  name: 'width-when-needed',
  setup(b) {
    const real = join(root, 'node_modules', 'string-width', 'index.js');
    b.onResolve({ filter: /^string-width$/ }, async (args) => {
      if (args.pluginData === 'string-width-itself') return undefined;
      const found = await b.resolve('string-width', { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'string-width-itself' });
      return found.path === real ? { path: real, namespace: 'width-when-needed' } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'width-when-needed' }, (args) => ({
      contents: `import { styledWidth } from ${JSON.stringify(join(root, 'src', 'person', 'text-width.ts'))};
let measure;
export default function stringWidth(text, options) {
  const plain = typeof text === 'string' && options?.ambiguousIsNarrow !== false && options?.countAnsiEscapeCodes !== true ? styledWidth(text) : undefined;
  return plain ?? (measure ??= require(${JSON.stringify(args.path)}).default)(text, options);
}
`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};
// The first Intl object a process makes costs tens of milliseconds of ICU's set-up; Ink's
// modules each make an Intl.Segmenter as they load, and cut every row of every frame into
// graphemes with one. In the screen's bundle, every module that makes one makes the stand-in of
// src/person/graphemes.ts instead, which cuts a row made of characters that are each a grapheme
// (nearly every row) itself, and makes the real segmenter only for a text that needs it.
const graphemesWhenNeeded = {
  name: 'graphemes-when-needed',
  setup(b) {
    const standIn = JSON.stringify(join(root, 'src', 'person', 'graphemes.ts'));
    b.onLoad({ filter: /[\\/]node_modules[\\/].*\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('new Intl.Segmenter(')) return undefined;
      if (!/^\s*(import|export)\s/m.test(source)) throw new Error(`${args.path} makes an Intl.Segmenter and is not a module (scripts/screen-plugins.mjs)`);
      return {
        contents: `import { segmenterWhenNeeded as __segmenterWhenNeeded } from ${standIn};\n${source.replaceAll('new Intl.Segmenter(', '__segmenterWhenNeeded(')}`,
        loader: 'js',
      };
    });
  },
};
// Ink turns each row of a frame into text by asking ansi-tokenize, between every two cells, which
// colour codes change (three Sets and four arrays each time): thousands per frame, most between
// cells of the same style, where the answer is none. In the screen's bundle that question is
// answered at once when both cells have the same codes, and asked as before otherwise.
const sameStyleAtOnce = {
  name: 'same-style-at-once',
  setup(b) {
    b.onResolve({ filter: /^\.\/diff\.js$/ }, (args) =>
      /[\\/]@alcalzone[\\/]ansi-tokenize[\\/]build[\\/]styledChars\.js$/.test(args.importer)
        ? { path: join(dirname(args.importer), 'diff.js'), namespace: 'same-style-at-once' }
        : undefined);
    b.onLoad({ filter: /.*/, namespace: 'same-style-at-once' }, (args) => ({
      contents: `import { diffAnsiCodes as diffAll } from ${JSON.stringify(args.path)};
const same = (from, to) => from.length === to.length && from.every((code, i) => code.code === to[i].code && code.endCode === to[i].endCode);
export function diffAnsiCodes(from, to) {
  return same(from, to) ? [] : diffAll(from, to);
}
`,
      loader: 'js',
      resolveDir: dirname(args.path),
    }));
  },
};
// Ink's output turns every row of a frame into an object per cell through ansi-tokenize (a token
// per character, then a copy of it and of its style list), and back into text asking, between
// every two cells, which codes change: most rows have no style and only one-column characters,
// and a board of one-row cards is rows of titles. In the screen's bundle such a row's cells are
// made at once, and a row of cells without style is joined at once (`plainCells`, `unstyledRow`,
// src/person/text-width.ts, checked against ansi-tokenize itself by its test); any other row as before.
const plainCellsAtOnce = {
  name: 'plain-cells-at-once',
  setup(b) {
    b.onLoad({ filter: /[\\/]ink[\\/]build[\\/]output\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const [slow, back] = INK_REWRITES['output.js'];
      for (const part of [slow, back]) {
        if (!source.includes(part)) throw new Error(`${args.path} no longer reads as scripts/screen-plugins.mjs expects (${part})`);
      }
      return {
        contents: `import { plainCells as __plainCells, unstyledRow as __unstyledRow } from ${JSON.stringify(join(root, 'src', 'person', 'text-width.ts'))};\n${source
          .replace(slow, 'cached = __plainCells(line) ?? styledCharsFromTokens(tokenize(line));')
          .replace(back, 'return (__unstyledRow(lineWithoutEmptyItems) ?? styledCharsToString(lineWithoutEmptyItems)).trimEnd();')}`,
        loader: 'js',
        resolveDir: dirname(args.path),
      };
    });
  },
};
// Ink and its helpers import Node's process object as a module a dozen times; bundled, each such
// import copies every one of its properties onto an object of getters as the bundle starts. In
// the screen's bundle, `node:process` is the global process itself, with the names they take.
const processItself = {
  name: 'process-itself',
  setup(b) {
    b.onResolve({ filter: /^(node:)?process$/ }, () => ({ path: 'process', namespace: 'process-itself' }));
    b.onLoad({ filter: /.*/, namespace: 'process-itself' }, () => ({
      contents: `export default process;
export const env = process.env;
export const cwd = () => process.cwd();
`,
      loader: 'js',
    }));
  },
};
// zod is used in the screen only by the keeper's dispatch, built at its first use (above): it
// has a bundle of its own beside the screen's, loaded then, so that the screen's first frame
// neither reads nor compiles it.
const zodBeside = {
  name: 'zod-beside',
  setup(b) {
    b.onResolve({ filter: /^zod$/ }, () => ({ path: 'zod', namespace: 'zod-beside' }));
    b.onLoad({ filter: /.*/, namespace: 'zod-beside' }, () => ({
      contents: "module.exports = require(require('node:path').join(__dirname, 'binder-tui-zod.js'));\n",
      loader: 'js',
    }));
  },
};
// Two of Node's modules the screen's bundle imports are used only later, if ever: crypto (the
// keeper's names for temporary files) and child_process (terminal-size asking `tput` when a
// terminal does not say its size). In the screen's bundle they are loaded at their first use.
const builtinsWhenUsed = {
  name: 'builtins-when-used',
  setup(b) {
    const later = [
      { module: 'crypto', names: ['randomBytes'], importer: join('src', 'keeper', 'folder-files.ts') },
      { module: 'child_process', names: ['execFileSync'], importer: join('node_modules', 'terminal-size', 'index.js') },
    ];
    b.onResolve({ filter: /^(node:)?(crypto|child_process)$/ }, (args) => {
      const use = later.find((l) => args.path.replace(/^node:/, '') === l.module && args.importer.endsWith(l.importer));
      return use ? { path: use.module, namespace: 'builtins-when-used', pluginData: use } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'builtins-when-used' }, (args) => ({
      contents: args.pluginData.names.map((name) => `export const ${name} = (...given) => require('node:${args.pluginData.module}').${name}(...given);`).join('\n'),
      loader: 'js',
    }));
  },
};
// better-sqlite3 is left out of the bundles and loaded by Node from node_modules: a dozen files
// compiled at every start (no code cache), then its addon looked for by `bindings` through a
// dozen paths. In the screen's bundle its JavaScript is bundled (and cached with the rest), and
// its addon is loaded from where the build found it, relative to the package Node resolves.
const sqliteAddon = join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
const sqliteInBundle = {
  name: 'sqlite-in-bundle',
  setup(b) {
    b.onResolve({ filter: /^bindings$/ }, (args) =>
      args.importer.includes(join('node_modules', 'better-sqlite3')) ? { path: 'bindings', namespace: 'sqlite-in-bundle' } : undefined);
    b.onLoad({ filter: /.*/, namespace: 'sqlite-in-bundle' }, () => ({
      contents: `const { dirname, join } = require('node:path');
module.exports = (addon) => require(join(dirname(require.resolve('better-sqlite3/package.json')), 'build', 'Release', addon));
`,
      loader: 'js',
    }));
  },
};
let sqliteBundled = false;
try { sqliteBundled = statSync(sqliteAddon).isFile(); } catch { /* a build of another kind: better-sqlite3 stays outside */ }

/** The plugins of the screen's bundle, in the order they are given to esbuild. */
export const screenPlugins = [
  yogaAtOnce, noInkDevtools, performWhenAsked, widthWhenNeeded, graphemesWhenNeeded, sameStyleAtOnce, plainCellsAtOnce,
  processItself, zodBeside, builtinsWhenUsed, ...(sqliteBundled ? [sqliteInBundle] : []),
];
export { sqliteBundled };
