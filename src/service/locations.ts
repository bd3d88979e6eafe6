/**
 * LSP locations → answers: each put through `locate` (locate.ts: the real path, inside / external /
 * refused), de-duplicated (tsserver repeats a location once per project that includes the file), sorted by file then position, paths workspace-relative, lines and columns
 * 1-based.
 * Locations outside the workspace (lib.d.ts, node_modules of another root) are kept with
 * `external: true` and their absolute path; secret files (by name or private-key content) are
 * dropped and counted in a warning.
 */
import type { Location, LocationLink, Range } from 'vscode-languageserver-protocol';

import type { FileContext } from '../adapters/types.js';
import { fromLspPosition } from '../lsp/positions.js';
import type { PositionEncoding } from '../lsp/types.js';
import { canonicalPath } from '../util/symlinks.js';
import { fileUri, pathOfUri } from '../util/uri.js';
import type { ServiceCall } from './call.js';
import { locate } from './locate.js';
import { type LinesOf, measure, sourceText } from './location-texts.js';
import { comparePositions } from './symbols.js';

export { locate, type Located, type LocateOptions, type LocationRefusal, refusalError } from './locate.js';

export interface ResolvedLocation {
  absPath: string;
  /** Workspace-relative (inside) or absolute (external). */
  file: string;
  external: boolean;
  range: Range;
  /** 1-based. */
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  /** The file's lines (from the open document when the server has it, else from disk). */
  lines: string[];
}

export function toLocations(answer: Location | Location[] | LocationLink[] | null | undefined): Location[] {
  if (!answer) return [];
  const list = Array.isArray(answer) ? answer : [answer];
  return list.map((l) => ('targetUri' in l ? { uri: l.targetUri, range: l.targetSelectionRange ?? l.targetRange } : l));
}

/**
 * Locations on their real paths (a server that walked `loop/up -> ..` answers `loop/up/src/a.php`
 * beside `src/a.php`: util/symlinks.ts), then de-duplicated and sorted. Non-file URIs are dropped.
 */
export function canonicalLocations(root: string, list: Location[], cache = new Map<string, string>()): Location[] {
  const out: Location[] = [];
  for (const l of list) {
    const named = pathOfUri(l.uri);
    if (named === undefined) continue;
    const real = canonicalPath(root, named, cache);
    out.push(real === named ? l : { ...l, uri: fileUri(real) });
  }
  return dedupeLocations(out);
}

export function dedupeLocations(list: Location[]): Location[] {
  const seen = new Set<string>();
  const out: Location[] = [];
  for (const l of list) {
    const key = `${l.uri}\0${l.range.start.line}:${l.range.start.character}:${l.range.end.line}:${l.range.end.character}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(l);
  }
  return out.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : comparePositions(a.range.start, b.range.start)));
}

/** Reads lines of files the answer points into, once per call. */
export class LineSource {
  private readonly measured = new Map<string, LinesOf>();
  constructor(private readonly call: ServiceCall) {}

  lines(absPath: string, session: FileContext['session']): string[] {
    return this.file(absPath, session).lines;
  }

  /**
   * The file's lines, their text, whether it holds a private key and its line starts: once per
   * file per answer, not once per location (references repeated the join, the key scan and two
   * line-start scans of the whole file for every location in it).
   */
  file(absPath: string, session: FileContext['session']): LinesOf {
    let f = this.measured.get(absPath);
    if (!f) {
      f = measure(sourceText(absPath, session));
      this.measured.set(absPath, f);
    }
    return f;
  }

  get root(): string {
    return this.call.root;
  }
}

/** Converts and filters; secret or unreadable targets are dropped with a warning count. */
export function resolveLocations(call: ServiceCall, src: LineSource, session: FileContext['session'], list: Location[]): ResolvedLocation[] {
  const out: ResolvedLocation[] = [];
  let secret = 0;
  // one realpath per file for the whole answer (a real path maps to itself)
  const cache = new Map<string, string>();
  const holdsKey = (abs: string) => src.file(abs, session).secret;
  for (const loc of canonicalLocations(call.root, list, cache)) {
    const where = locate(call.root, loc.uri, { cache, holdsKey });
    if (where.where === 'refused') {
      if (where.reason !== 'not_file_uri') secret++;
      continue;
    }
    // outside the workspace and not library code: the location, never the file's text
    if (where.where === 'external' && !where.library) {
      out.push(unquoted(where.abs, loc));
      continue;
    }
    const { lines, text, starts } = src.file(where.abs, session);
    const enc: PositionEncoding = session.positionEncoding;
    const s = fromLspPosition(text, loc.range.start, enc, starts);
    const e = fromLspPosition(text, loc.range.end, enc, starts);
    out.push({
      absPath: where.abs,
      file: where.file,
      external: where.where === 'external',
      range: loc.range,
      line: s.line,
      column: s.column,
      end_line: e.line,
      end_column: e.column,
      lines,
    });
  }
  if (secret) call.meta.warn(`${secret} location(s) in secret files were left out`);
  return out;
}

/** 1-based line and column straight from the LSP position (no text to measure the column with). */
function unquoted(abs: string, loc: Location): ResolvedLocation {
  const { start, end } = loc.range;
  return {
    absPath: abs,
    file: abs,
    external: true,
    range: loc.range,
    line: start.line + 1,
    column: start.character + 1,
    end_line: end.line + 1,
    end_column: end.character + 1,
    lines: [],
  };
}
