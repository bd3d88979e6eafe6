/**
 * A server's WorkspaceEdit → per-file previews: the text each edit was computed against (and its
 * sha256), the text after, a unified diff (jsdiff), and the number of edits. Only text edits are
 * accepted: resource operations (create, rename, delete files) are refused, as is any file outside
 * the workspace or a secret file. Positions are in the server's encoding.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createTwoFilesPatch } from 'diff';
import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { LspgateError } from '../../errors/errors.js';
import { sha256 } from '../../lsp/documents.js';
import { offsetAt } from '../../lsp/positions.js';
import type { LspSession } from '../../lsp/types.js';
import { isInside, isSecretPath, toRelative } from '../../util/paths.js';

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
}

/** `changes` and `documentChanges` (TextDocumentEdit only) as one map of file → edits. */
export function textEditsByFile(edit: WorkspaceEdit): Map<string, TextEdit[]> {
  const out = new Map<string, TextEdit[]>();
  const add = (uri: string, edits: TextEdit[]) => out.set(uri, [...(out.get(uri) ?? []), ...edits]);
  for (const [uri, edits] of Object.entries(edit.changes ?? {})) add(uri, edits);
  for (const dc of edit.documentChanges ?? []) {
    if (!('textDocument' in dc)) {
      throw new LspgateError('NOT_SUPPORTED', `the server's edit ${dc.kind}s a file (${'uri' in dc ? dc.uri : dc.oldUri}); lspgate applies text edits only`, { operation: dc.kind });
    }
    add(dc.textDocument.uri, dc.edits.filter((e): e is TextEdit => 'range' in e));
  }
  return out;
}

/**
 * The edit of every file, computed against its content on disk. A file the server holds open with
 * other content than the disk's would make the edit's positions wrong: CONTENT_MODIFIED.
 */
export function previewEdits(root: string, session: LspSession, edit: WorkspaceEdit): FileEdit[] {
  const out: FileEdit[] = [];
  for (const [uri, edits] of textEditsByFile(edit)) {
    const abs = fileURLToPath(uri);
    if (!isInside(root, abs)) throw new LspgateError('PATH_OUTSIDE_WORKSPACE', `the edit touches ${abs}, outside the workspace ${root}: nothing is changed`, { path: abs });
    if (isSecretPath(abs)) throw new LspgateError('SECRET_FILE', `the edit touches a secret file (${toRelative(root, abs)}): nothing is changed`, { path: toRelative(root, abs) });
    let before: string;
    try {
      before = readFileSync(abs, 'utf8');
    } catch (e) {
      throw new LspgateError('FILE_NOT_FOUND', `cannot read ${toRelative(root, abs)}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { path: abs });
    }
    const hash = sha256(before);
    const open = session.getDocument(abs);
    if (open && open.hash !== hash) {
      throw new LspgateError('CONTENT_MODIFIED', `${toRelative(root, abs)} differs on disk from the text the server computed the edit on`, { path: toRelative(root, abs), stale: abs });
    }
    const after = applyTextEdits(before, edits, session.positionEncoding);
    const file = toRelative(root, abs);
    // jsdiff opens every patch with a line of '=' (an svn-style separator): not part of a unified diff
    const diff = createTwoFilesPatch(`a/${file}`, `b/${file}`, before, after, undefined, undefined, { context: 2 }).replace(/^=+\n/, '');
    out.push({ absPath: abs, file, before, content_hash: hash, after, edits: edits.length, diff });
  }
  return out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
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
