/**
 * code_actions: the actions a server offers for a file or a line range (with the file's current
 * diagnostics in the request context, as editors send them), each with its edit as unified diffs.
 * Preview only, unless `apply` names one action: then the same rules as rename_symbol's apply.
 * An action that is only a Command (the server would carry it out itself through
 * workspace/applyEdit, which lspgate refuses) is listed without a diff.
 */
import { type CodeAction, CodeActionRequest, CodeActionResolveRequest, type Command, type Diagnostic, type Range } from 'vscode-languageserver-protocol';

import { LspgateError } from '../../errors/errors.js';
import { sha256 } from '../../lsp/documents.js';
import { toLspPosition } from '../../lsp/positions.js';
import type { LspSession, PositionEncoding } from '../../lsp/types.js';
import { ACTION_KINDS } from '../../schema/vocabularies.js';
import { redactPrivateKeys } from '../../util/secret-files.js';
import type { ServiceCall } from '../call.js';
import { documentDiagnostics } from '../diagnostics/diagnostics-source.js';
import { applyFileEdits } from './edit-apply.js';
import type { EditFileEntry } from './rename.js';
import { type FileEdit, previewEdits } from './workspace-edit.js';

export { ACTION_KINDS };

export interface CodeActionsInput {
  file: string;
  start_line?: number | undefined;
  end_line?: number | undefined;
  only?: (typeof ACTION_KINDS)[number] | undefined;
  apply?: number | undefined;
  expected_hashes?: Record<string, string> | undefined;
}

export interface ActionEntry {
  index: number;
  title: string;
  kind?: string;
  is_preferred?: boolean;
  /** Titles of the diagnostics it fixes. */
  fixes?: string[];
  /** Set when the action is a server command only: no edit to show or apply. */
  command?: string;
  files: EditFileEntry[];
}

export interface CodeActionsResult {
  file: string;
  applied?: number;
  /** Where the old contents were copied (apply only). */
  backup_dir?: string;
  actions: ActionEntry[];
}

export async function codeActions(call: ServiceCall, input: CodeActionsInput): Promise<CodeActionsResult> {
  const abs = call.resolvePath(input.file, { expect: 'file' });
  const file = await call.file(abs);
  const session = file.session;
  if (!session.hasCapability('codeActionProvider'))
    throw new LspgateError('NOT_SUPPORTED', `${session.serverId} has no code actions`, { server: session.serverId });
  const got = await documentDiagnostics(session, abs, { maxFileBytes: call.env.limits.maxFileBytes, signal: call.signal });
  const range = rangeOf(file.text, file.lines.length, input, session.positionEncoding);
  const diagnostics = got.diagnostics.filter((d) => overlaps(d.range, range));
  const context = input.only ? { diagnostics, only: [input.only], triggerKind: 1 as const } : { diagnostics, triggerKind: 1 as const };
  const answer = (await session.request(CodeActionRequest.type, { textDocument: { uri: got.doc.uri }, range, context }, { signal: call.signal })) ?? [];
  const actions: ActionEntry[] = [];
  const edits: FileEdit[][] = [];
  for (const [index, a] of answer.entries()) {
    const resolved = await resolveAction(session, a, call.signal);
    const files = 'edit' in resolved && resolved.edit ? previewEdits(call.root, session, resolved.edit) : [];
    edits.push(files);
    actions.push(entry(index, resolved, files));
  }
  const out: CodeActionsResult = { file: file.relPath, actions };
  if (input.apply !== undefined) {
    const chosen = actions[input.apply];
    if (!chosen)
      throw new LspgateError('INVALID_INPUT', `no action ${input.apply}: ${actions.length} offered (indexes 0..${actions.length - 1})`, {
        actions: actions.length,
      });
    if (chosen.command !== undefined || !edits[input.apply]!.length) {
      throw new LspgateError('NOT_SUPPORTED', `"${chosen.title}" has no edit to apply (the server would run it as a command)`, { title: chosen.title });
    }
    out.backup_dir = (await applyFileEdits(call, edits[input.apply]!, input.expected_hashes, 'code_actions')).backup_dir;
    out.applied = input.apply;
    for (const f of chosen.files) f.new_hash = sha256(edits[input.apply]!.find((e) => e.file === f.file)!.after);
  }
  return out;
}

/** Whole file by default; else the lines asked (1-based, inclusive). */
function rangeOf(text: string, lineCount: number, input: CodeActionsInput, enc: PositionEncoding): Range {
  const start = input.start_line ?? 1;
  const end = input.end_line ?? input.start_line ?? lineCount;
  if (start < 1 || end < start || end > lineCount)
    throw new LspgateError('INVALID_INPUT', `lines ${start}..${end} are outside the file (1..${lineCount})`, { start_line: start, end_line: end });
  return { start: toLspPosition(text, start, 1, enc), end: toLspPosition(text, end, Number.MAX_SAFE_INTEGER, enc) };
}

function overlaps(a: Range, b: Range): boolean {
  const before = (p: Range['start'], q: Range['start']) => p.line < q.line || (p.line === q.line && p.character < q.character);
  return !before(a.end, b.start) && !before(b.end, a.start);
}

/** LSP 3.16: an action without its edit may be completed with codeAction/resolve. */
async function resolveAction(session: LspSession, a: Command | CodeAction, signal?: AbortSignal): Promise<Command | CodeAction> {
  if (isCommand(a) || a.edit || a.data === undefined) return a;
  const provider = session.capabilities?.codeActionProvider;
  if (typeof provider !== 'object' || !provider.resolveProvider) return a;
  return session.request(CodeActionResolveRequest.type, a, { signal });
}

function entry(index: number, a: Command | CodeAction, files: FileEdit[]): ActionEntry {
  const e: ActionEntry = {
    index,
    title: redactPrivateKeys(a.title),
    files: files.map((f) => ({ file: f.file, content_hash: f.content_hash, edits: f.edits, diff: f.diff })),
  };
  if (isCommand(a)) {
    e.command = a.command;
    return e;
  }
  if (a.kind) e.kind = a.kind;
  if (a.isPreferred) e.is_preferred = true;
  const fixes = (a.diagnostics ?? []).map((d: Diagnostic) => redactPrivateKeys(typeof d.message === 'string' ? d.message : d.message.value));
  if (fixes.length) e.fixes = fixes;
  if (!a.edit && a.command) e.command = a.command.command;
  return e;
}

function isCommand(a: Command | CodeAction): a is Command {
  return typeof (a as Command).command === 'string';
}
