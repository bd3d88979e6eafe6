/**
 * What a rename left behind: every textual occurrence of the old name, in the files the renaming
 * server serves, that its edit does not cover and that is not another symbol. A server renames
 * only what its project sees: pyright with a config that includes only `src` renamed a method in
 * its own file and left its callers in tests/ and examples/ (the test suite failed after apply).
 * An uncovered occurrence is listed when the server's own definition there is the renamed
 * declaration (`resolves: target`: the rename missed a use it knows) or nothing (`resolves:
 * nothing`: a comment, a string, a file outside its project); occurrences whose definition is
 * another declaration are other symbols of the same name and are not listed.
 */
import { DefinitionRequest, type WorkspaceEdit } from 'vscode-languageserver-protocol';

import { LspgateError } from '../../errors/errors.js';
import { toLspPosition } from '../../lsp/positions.js';
import type { LspSession } from '../../lsp/types.js';
import { isSecretPath } from '../../util/paths.js';
import { pathOfUri } from '../../util/uri.js';
import type { ServiceCall } from '../call.js';
import { diskText } from '../disk-texts.js';
import { locate } from '../locate.js';
import { toLocations } from '../locations.js';
import { servedBy } from '../navigation/mentions.js';
import type { ResolvedTarget } from '../navigation/resolve.js';
import { textEditsByFile } from './workspace-edit.js';

export interface NotRenamed {
  file: string;
  /** 1-based; column in UTF-16 code units of the line. */
  line: number;
  column: number;
  /** The line, trimmed. */
  text: string;
  /** What the server's definition at the occurrence is: the renamed declaration, or nothing. */
  resolves: 'target' | 'nothing';
}

/** Occurrences checked with a definition request at most; more are listed unchecked with a warning. */
const MAX_CHECKED = 500;

/** Uncovered occurrences of `oldName` (see the header), in file then line order. */
export async function notRenamed(call: ServiceCall, target: ResolvedTarget, oldName: string, edit: WorkspaceEdit): Promise<NotRenamed[]> {
  if (!/^[\w$]+$/.test(oldName)) return [];
  const session = target.file.session;
  const covered = coveredStarts(call.root, edit);
  const word = new RegExp(`(?<![\\w$])${oldName.replace(/\$/g, '\\$')}(?![\\w$])`, 'g');
  const out: NotRenamed[] = [];
  let checked = 0;
  for (const [rel] of [...call.workspace.catalog.files()].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const abs = call.resolvePath(rel, { mustExist: false });
    if (!servedBy(call, abs, session)) continue;
    if (isSecretPath(abs)) continue;
    const text = diskText(abs);
    if (text === undefined) continue;
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      for (const m of lines[i]!.matchAll(word)) {
        if (covered.has(`${abs}\0${i}\0${m.index}`) || isDeclaration(target, abs, i, m.index)) continue;
        const resolves = checked++ < MAX_CHECKED ? await resolution(call, session, target, abs, text, i + 1, m.index + 1) : 'nothing';
        if (resolves === 'other') continue;
        out.push({ file: rel, line: i + 1, column: m.index + 1, text: lines[i]!.trim().slice(0, 200), resolves });
      }
    }
  }
  if (checked > MAX_CHECKED)
    call.meta.warn(`${checked - MAX_CHECKED} occurrence(s) of \`${oldName}\` were listed in not_renamed without asking the server what they are`);
  return out;
}

/** `uri\0line\0character` of every edit's start (the server's positions, UTF-16 as lspgate negotiates). */
function coveredStarts(root: string, edit: WorkspaceEdit): Set<string> {
  const out = new Set<string>();
  const cache = new Map<string, string>();
  for (const [uri, edits] of textEditsByFile(edit)) {
    // the one conversion of a server URI (real path, symlinks followed), as the edit path writes it
    const where = locate(root, uri, { cache, holdsKey: () => false });
    if (where.where !== 'inside') continue;
    for (const e of edits) out.add(`${where.abs}\0${e.range.start.line}\0${e.range.start.character}`);
  }
  return out;
}

function isDeclaration(target: ResolvedTarget, abs: string, line0: number, character: number): boolean {
  return abs === target.file.absPath && line0 === target.position.line && character === target.position.character;
}

/** The server's definition at an occurrence: the renamed declaration, another one, or nothing. */
async function resolution(
  call: ServiceCall,
  session: LspSession,
  target: ResolvedTarget,
  abs: string,
  text: string,
  line: number,
  column: number,
): Promise<'target' | 'other' | 'nothing'> {
  const doc = await session.syncDocument(abs);
  const position = toLspPosition(text, line, column, session.positionEncoding);
  let answer;
  try {
    answer = await session.request(DefinitionRequest.type, { textDocument: { uri: doc.uri }, position }, { signal: call.signal });
  } catch (e) {
    if (e instanceof LspgateError && e.code === 'CANCELLED') throw e;
    return 'nothing';
  }
  const locs = toLocations(answer);
  if (locs.length === 0) return 'nothing';
  const decl = target.symbol?.symbol.selectionRange.start ?? target.position;
  const hit = locs.some((l) => pathOfUri(l.uri) === target.file.absPath && l.range.start.line === decl.line);
  return hit ? 'target' : 'other';
}
