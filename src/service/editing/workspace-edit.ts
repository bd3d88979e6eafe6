/**
 * A server's WorkspaceEdit → per-file previews: the text each edit was computed against (and its
 * sha256), the text after, a unified diff (jsdiff), and the number of edits. Only text edits are
 * accepted: resource operations (create, rename, delete files) are refused. Every file is put through
 * `locate` for writing (service/locate.ts): its real path must be a regular file inside the workspace
 * whose name is no secret's and whose text holds no private key, else the whole edit is refused — a
 * diff would quote the file, and an apply would write it. A symlink inside the workspace to a file of
 * the workspace is edited through its target (the link stays); its edits and the target's, when the
 * server sent both, are one file's. Positions are in the server's encoding.
 */
import { readFileSync } from 'node:fs';

import { createTwoFilesPatch } from 'diff';
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';

import { LspgateError } from '../../errors/errors.js';
import { sha256 } from '../../lsp/documents.js';
import { offsetAt } from '../../lsp/positions.js';
import type { LspSession } from '../../lsp/types.js';
import { containsPrivateKey } from '../../util/secret-files.js';
import { fileUri } from '../../util/uri.js';
import { refuseVcsInternals } from '../../util/vcs-internals.js';
import { locate, refusalError } from '../locate.js';

export interface FileEdit {
  absPath: string;
  /** Workspace-relative with `/`. */
  file: string;
  /** The content the edits were computed against (the file on disk) and its sha256. */
  before: string;
  content_hash: string;
  after: string;
  edits: number;
  diff: string;
  /** A file the apply creates (`before` is empty; its content_hash is ABSENT) with this mode. */
  created?: { mode: number };
  /** A file the apply removes (`after` is empty). */
  deleted?: true;
}

/** `changes` and `documentChanges` (TextDocumentEdit only) as one map of file → edits. */
export function textEditsByFile(edit: WorkspaceEdit): Map<string, TextEdit[]> {
  const out = new Map<string, TextEdit[]>();
  const add = (uri: string, edits: TextEdit[]) => out.set(uri, [...(out.get(uri) ?? []), ...edits]);
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) add(uri, edits);
  for (const dc of edit.documentChanges ?? []) {
    if (!('textDocument' in dc)) {
      throw new LspgateError('NOT_SUPPORTED', `the server's edit ${dc.kind}s a file (${'uri' in dc ? dc.uri : dc.oldUri}); lspgate applies text edits only`, {
        operation: dc.kind,
      });
    }
    add(
      dc.textDocument.uri,
      dc.edits.filter((e): e is TextEdit => 'range' in e),
    );
  }
  return out;
}

/** Text read once per file of an edit (the content check and the preview use the same bytes). */
type Texts = Map<string, string>;

function readText(abs: string, texts: Texts, shown: string): string {
  let t = texts.get(abs);
  if (t === undefined) {
    try {
      t = readFileSync(abs, 'utf8');
    } catch (e) {
      throw new LspgateError('FILE_NOT_FOUND', `cannot read ${shown}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { path: shown });
    }
    texts.set(abs, t);
  }
  return t;
}

/**
 * Where an edit may write: the real path of a regular file inside the workspace, outside VCS and
 * tool internals (`.git`, `.hg`, `.svn`, `.lspgate` at any depth, util/vcs-internals.ts), no secret
 * by name or content; else the coded refusal (the whole edit is refused). `uri` as the server sent
 * it, or a path's file URI.
 */
export function editTarget(root: string, uri: string, texts: Texts = new Map()): { abs: string; file: string } {
  const where = locate(root, uri, { purpose: 'write', holdsKey: (abs) => containsPrivateKey(readText(abs, texts, abs)) });
  if (where.where === 'refused') throw refusalError(where, 'the edit touches a file it may not write');
  if (where.where === 'external')
    throw new LspgateError('PATH_OUTSIDE_WORKSPACE', `the edit touches ${where.abs}, outside the workspace ${root}: nothing is changed`, { path: where.abs });
  refuseVcsInternals(root, where.abs, where.file);
  return where;
}

/** The edit target of a workspace path (tag_elements): the same gate as a server's URI. */
export function editTargetOfPath(root: string, abs: string, texts?: Texts): { abs: string; file: string } {
  return editTarget(root, fileUri(abs), texts);
}

/** Edits of URIs that are one real file (a link and its target), without the repeats. */
function editsByRealFile(root: string, edit: WorkspaceEdit, texts: Texts): Map<string, { file: string; edits: TextEdit[] }> {
  const out = new Map<string, { file: string; edits: TextEdit[] }>();
  for (const [uri, edits] of textEditsByFile(edit)) {
    const { abs, file } = editTarget(root, uri, texts);
    const known = out.get(abs) ?? { file, edits: [] };
    const seen = new Set(known.edits.map(editKey));
    for (const e of edits) {
      if (seen.has(editKey(e))) continue;
      seen.add(editKey(e));
      known.edits.push(e);
    }
    out.set(abs, known);
  }
  return out;
}

function editKey(e: TextEdit): string {
  return `${e.range.start.line}:${e.range.start.character}-${e.range.end.line}:${e.range.end.character}\0${e.newText}`;
}

/**
 * The edit of every file, computed against its content on disk. A file the server holds open with
 * other content than the disk's would make the edit's positions wrong: CONTENT_MODIFIED.
 */
export function previewEdits(root: string, session: LspSession, edit: WorkspaceEdit): FileEdit[] {
  const out: FileEdit[] = [];
  const texts: Texts = new Map();
  // every file is checked before any diff is made: one refused file refuses the whole edit
  const files = editsByRealFile(root, edit, texts);
  for (const [abs, { file, edits }] of files) {
    const before = readText(abs, texts, file);
    const hash = sha256(before);
    const open = session.getDocument(abs);
    if (open && open.hash !== hash) {
      throw new LspgateError('CONTENT_MODIFIED', `${file} differs on disk from the text the server computed the edit on`, { path: file, stale: abs });
    }
    const after = applyTextEdits(before, edits, session.positionEncoding);
    out.push({ absPath: abs, file, before, content_hash: hash, after, edits: edits.length, diff: unifiedDiff(file, before, after, 2) });
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
}

/** jsdiff opens every patch with a line of '=' (an svn-style separator): not part of a unified diff. */
export function unifiedDiff(file: string, before: string, after: string, context: number): string {
  return createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, undefined, undefined, { context }).replace(/^=+\n/, '');
}

/** LSP: edits of one file never overlap and refer to the original text; applied from the end. */
export function applyTextEdits(text: string, edits: TextEdit[], enc: LspSession['positionEncoding']): string {
  const spans = edits
    .map((e) => ({ start: offsetAt(text, e.range.start, enc), end: offsetAt(text, e.range.end, enc), newText: e.newText }))
    .sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  let limit = Number.POSITIVE_INFINITY;
  for (const s of spans) {
    if (s.end > limit) throw new LspgateError('INTERNAL', 'the server sent overlapping edits for one file', { start: s.start, end: s.end });
    out = out.slice(0, s.start) + s.newText + out.slice(s.end);
    limit = s.start;
  }
  return out;
}
