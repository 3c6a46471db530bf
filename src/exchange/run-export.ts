/**
 * `binder admin export`: the store read in one snapshot and written as Binder's JSON, CSV or
 * Markdown, to a file (whole or not at all), a folder (Markdown, a file per list) or stdout, with
 * a progress bar on the person's terminal for a long one. It only reads the binder.
 */
import { mkdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { Refused } from '../store/index.js';
import type { Place } from './commands.js';
import { storeOf } from './store-of.js';

import { jsonDocument } from '../keeper/json-document.js';
import { said } from '../keeper/text-values.js';
import { binderCsv } from './export-csv.js';
import { binderJson, type Writer } from './export-json.js';
import { binderMarkdown } from './export-markdown.js';
import { fileSink, stdoutSink, type Sink } from './out-file.js';
import { printAnswer, printSentence } from './print.js';
import { progressMaker, SILENT, type Progress } from './progress.js';

type Format = 'json' | 'csv' | 'markdown';

/** The format asked for, else the one the file's name says, else JSON. */
export function formatFor(given: Format | undefined, out: string | undefined): Format {
  if (given) return given;
  const ext = out ? extname(out).toLowerCase() : '';
  if (ext === '.csv') return 'csv';
  if (ext === '.md' || ext === '.markdown' || (out !== undefined && ext === '' && out.endsWith('/'))) return 'markdown';
  return 'json';
}

export async function runExport(
  lists: readonly string[], o: { format?: Format; out?: string }, place: Place,
): Promise<number> {
  const format = formatFor(o.format, o.out);
  const makeBar = await progressMaker();
  const store = await storeOf(place);
  if (!store) return 2;
  const sinks: Sink[] = [];
  const exported = new Date().toISOString();
  let bar: Progress = SILENT;
  try {
    let writer: Writer;
    let written = 0;
    if (format === 'markdown') {
      const folder = o.out;
      if (folder !== undefined) {
        try {
          mkdirSync(folder, { recursive: true, mode: 0o700 });
        } catch (e) {
          const why = e instanceof Error ? e.message : String(e);
          throw new Refused(`Markdown goes to a folder, a file per list: ${folder} cannot be one (${why}).`,
            `Le Markdown va dans un dossier, un fichier par liste : ${folder} ne peut pas en être un (${why}).`);
        }
      }
      const out = folder === undefined ? stdoutSink() : undefined;
      if (out) sinks.push(out);
      let first = true;
      writer = binderMarkdown(exported, (list, text) => {
        if (out) {
          out.write(`${first ? '' : '\n---\n\n'}${text}`);
          first = false;
          return;
        }
        const file = fileSink(join(folder!, `${list}.md`));
        sinks.push(file);
        file.write(text);
      });
    } else {
      const sink = o.out === undefined ? stdoutSink() : fileSink(o.out);
      sinks.push(sink);
      writer = format === 'csv' ? binderCsv(sink) : binderJson(sink, exported, place.who);
    }
    const counts = await store.exportBinder(lists, place.who, (piece) => {
      if (piece.kind === 'begin') bar = makeBar('Exporting', piece.records);
      writer.take(piece);
      if (piece.kind === 'record' && ++written % 500 === 0) bar.to(written);
    });
    writer.end();
    bar.stop();
    for (const sink of sinks) sink.close();
    if (o.out !== undefined) {
      const summary = { format, out: o.out, lists: counts.lists, records: counts.records };
      if (place.json) process.stdout.write(`${jsonDocument(summary)}\n`);
      else printAnswer(said`Exported ${counts.lists} list${counts.lists === 1 ? '' : 's'} and ${counts.records} record${counts.records === 1 ? '' : 's'} to ${o.out} (${format}).`.text);
    }
    return 0;
  } catch (error) {
    bar.stop();
    for (const sink of sinks) sink.drop();
    if (error instanceof Refused) { printSentence(`Not done: ${error.message}`); return 1; }
    throw error;
  } finally {
    await store.close();
  }
}
