/**
 * rename_symbol: prepareRename (where the server offers it), then rename; the WorkspaceEdit as
 * per-file unified diffs with counts and the content hashes it was computed for. `apply: true`
 * writes it through edit-apply.ts. Refusals come from the server's own answer: a null
 * prepareRename, or the error its rename answers with (gopls: "invalid identifier"), are
 * INVALID_INPUT carrying the server's message.
 */
import { PrepareRenameRequest, type PrepareRenameResult, RenameRequest, type WorkspaceEdit } from 'vscode-languageserver-protocol';

import { genericNameProblem } from '../../adapters/identifier.js';
import type { FileContext } from '../../adapters/types.js';
import { LspgateError } from '../../errors/errors.js';
import { sha256 as sha } from '../../lsp/documents.js';
import type { ServiceCall } from '../call.js';
import { openMentioning } from '../navigation/mentions.js';
import { type ResolvedTarget, resolveTarget, type TargetInput } from '../navigation/resolve.js';
import { applyFileEdits } from './edit-apply.js';
import { type NotRenamed, notRenamed } from './rename-coverage.js';
import { type FileEdit, previewEdits } from './workspace-edit.js';

export interface RenameInput extends TargetInput {
  new_name: string;
  apply?: boolean | undefined;
  expected_hashes?: Record<string, string> | undefined;
  /** Apply even though occurrences of the old name are left (`not_renamed`). */
  accept_not_renamed?: boolean | undefined;
}

export interface EditFileEntry {
  file: string;
  content_hash: string;
  edits: number;
  diff: string;
  new_hash?: string;
}

export interface RenameResult {
  symbol: string;
  old_name: string;
  new_name: string;
  applied: boolean;
  total_edits: number;
  total_files: number;
  files: EditFileEntry[];
  /** Where the old contents were copied (apply only). */
  backup_dir?: string;
  /** Occurrences of the old name the server's edit leaves (rename-coverage.ts). */
  not_renamed: NotRenamed[];
}

export async function renameSymbol(call: ServiceCall, input: RenameInput): Promise<RenameResult> {
  const target = await resolveTarget(call, input);
  const { file } = target;
  const session = file.session;
  if (!session.hasCapability('renameProvider')) {
    throw new LspgateError('NOT_SUPPORTED', `${session.serverId} has no rename provider`, { server: session.serverId });
  }
  checkNewName(call, file, input.new_name);
  const params = { textDocument: { uri: file.uri }, position: target.position };
  const old = await prepared(call, file, params);
  // A server renames what it sees: the files that spell the name are opened first (mentions.ts).
  await openMentioning(call, session, old ?? nameAt(file.lines, target.position));
  let workspaceEdit: WorkspaceEdit | undefined;
  const ask = async (): Promise<FileEdit[]> => {
    let edit: WorkspaceEdit | null;
    try {
      edit = await session.request(RenameRequest.type, { ...params, newName: input.new_name }, { signal: call.signal });
    } catch (e) {
      throw serverRefusal(e, `${session.serverId} refused to rename ${target.label} to ${input.new_name}`);
    }
    if (!edit) throw new LspgateError('INVALID_INPUT', `${session.serverId} has nothing to rename at ${target.label}`, { symbol: target.label });
    workspaceEdit = edit;
    return previewEdits(call.root, session, edit);
  };
  let files: FileEdit[];
  try {
    files = await ask();
  } catch (e) {
    // A file the server holds open changed on disk since it was synced: sync it, ask once more.
    const stale = e instanceof LspgateError && e.code === 'CONTENT_MODIFIED' ? e.details?.stale : undefined;
    if (typeof stale !== 'string') throw e;
    await session.syncDocument(stale);
    files = await ask();
  }
  for (const f of files) call.meta.addSourceFile(f.absPath);
  const oldName = old ?? nameAt(file.lines, target.position);
  // refuses an apply that would leave occurrences before anything is staged
  const left = await uncovered(call, target, oldName, workspaceEdit!, input);
  const applied = input.apply ? await applyFileEdits(call, files, input.expected_hashes, 'rename_symbol') : undefined;
  const out: RenameResult = { ...result(target.label, oldName, input, files), not_renamed: left };
  if (applied) out.backup_dir = applied.backup_dir;
  return out;
}

/**
 * The new name must be an identifier of the file's language (the adapter's grammar) before a server
 * sees it: servers splice the name they are given into every edited file as it is.
 */
function checkNewName(call: ServiceCall, file: FileContext, name: string): void {
  const adapter = call.adapter(file);
  const problem = (adapter.newNameProblem ?? genericNameProblem)(name);
  if (problem)
    throw new LspgateError('INVALID_INPUT', `new_name ${JSON.stringify(name.slice(0, 80))}: ${problem}; nothing is renamed`, {
      new_name: name.slice(0, 200),
      language: file.language,
    });
}

/** The occurrences the edit leaves; an apply that would leave some needs `accept_not_renamed`. */
async function uncovered(call: ServiceCall, target: ResolvedTarget, oldName: string, edit: WorkspaceEdit, input: RenameInput): Promise<NotRenamed[]> {
  const left = await notRenamed(call, target, oldName, edit);
  if (!left.length) return left;
  const where = [...new Set(left.map((l) => l.file))];
  call.meta.warn(
    `${left.length} occurrence(s) of \`${oldName}\` in ${where.length} file(s) are not renamed by ${target.file.session.serverId} (see not_renamed: ${where.slice(0, 3).join(', ')}${where.length > 3 ? ', …' : ''})`,
  );
  if (input.apply && !input.accept_not_renamed) {
    throw new LspgateError(
      'INVALID_INPUT',
      `renaming ${oldName} would leave ${left.length} occurrence(s) in ${where.length} file(s) that the server did not rename; nothing is written: rename them yourself, or apply with accept_not_renamed: true`,
      { not_renamed: left.slice(0, 50) },
    );
  }
  return left;
}

/** prepareRename where offered: null means the server will not rename here. */
async function prepared(
  call: ServiceCall,
  file: FileContext,
  params: { textDocument: { uri: string }; position: { line: number; character: number } },
): Promise<string | undefined> {
  const provider = file.session.capabilities?.renameProvider;
  if (typeof provider !== 'object' || !provider.prepareProvider) return undefined;
  let answer: PrepareRenameResult | null;
  try {
    answer = await file.session.request(PrepareRenameRequest.type, params, { signal: call.signal });
  } catch (e) {
    throw serverRefusal(e, `${file.session.serverId} cannot rename at ${file.relPath}:${params.position.line + 1}`);
  }
  if (!answer)
    throw new LspgateError('INVALID_INPUT', `${file.session.serverId} says the symbol at ${file.relPath}:${params.position.line + 1} cannot be renamed`, {
      file: file.relPath,
    });
  if ('placeholder' in answer) return answer.placeholder;
  return undefined;
}

/** A request error of the server that is about the caller's input → INVALID_INPUT with its message. */
function serverRefusal(e: unknown, what: string): unknown {
  if (!(e instanceof LspgateError) || e.code !== 'INTERNAL' || e.details?.lspCode === undefined) return e;
  return new LspgateError('INVALID_INPUT', `${what}: ${String(e.details.lspMessage)}`, { ...e.details });
}

function nameAt(lines: string[], pos: { line: number; character: number }): string {
  const text = lines[pos.line] ?? '';
  return /^[\w$]+/.exec(text.slice(pos.character))?.[0] ?? '';
}

function result(label: string, oldName: string, input: RenameInput, files: FileEdit[]): Omit<RenameResult, 'not_renamed'> {
  return {
    symbol: label,
    old_name: oldName,
    new_name: input.new_name,
    applied: !!input.apply,
    total_edits: files.reduce((n, f) => n + f.edits, 0),
    total_files: files.length,
    files: files.map((f) => {
      const e: EditFileEntry = { file: f.file, content_hash: f.content_hash, edits: f.edits, diff: f.diff };
      if (input.apply) e.new_hash = sha(f.after);
      return e;
    }),
  };
}
