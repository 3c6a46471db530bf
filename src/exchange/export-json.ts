/**
 * Binder's own JSON: the binder whole or the lists named, lossless — lists with states, gates,
 * fields, access and history; records with notes, attachments, owners, due, approval, needs and
 * history. One list or one record per line, so that an import can say which line was wrong and
 * read a file of any size piece by piece. Its first line says what it is.
 */
import type { Outgoing, Who } from '../store/index.js';
import { jsonDocument } from '../keeper/json-document.js';
import type { Sink } from './out-file.js';

export const BINDER_FORMAT = 'binder';
export const BINDER_VERSION = 1;

export interface Writer {
  take(piece: Outgoing): void;
  end(): void;
}

export function binderJson(sink: Sink, exported: string, by: Who): Writer {
  let lists = 0;
  let records = -1;
  const head = { format: BINDER_FORMAT, version: BINDER_VERSION, exported, by };
  const toRecords = (): void => {
    if (records >= 0) return;
    sink.write('\n],"records":[\n');
    records = 0;
  };
  return {
    take(piece) {
      switch (piece.kind) {
        case 'begin':
          sink.write(`${jsonDocument(head).slice(0, -1)},"lists":[\n`);
          return;
        case 'list':
          sink.write(`${lists++ ? ',\n' : ''}${jsonDocument(piece.list)}`);
          return;
        case 'record':
          toRecords();
          sink.write(`${records++ ? ',\n' : ''}${jsonDocument(piece.record)}`);
          return;
        default: {
          const never: never = piece;
          throw new Error(`unknown piece ${JSON.stringify(never)}`);
        }
      }
    },
    end() {
      toRecords();
      sink.write('\n]}\n');
    },
  };
}
