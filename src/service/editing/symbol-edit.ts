/**
 * Edits by symbol: replace_symbol_body, insert_before_symbol, insert_after_symbol, delete_symbol.
 * Each computes the new file from the catalog's declaration range (symbol-range.ts), the caller's
 * text shaped like the file (symbol-text.ts) and a parse check of the result (parse-check.ts); then
 * the diagnostics delta (diagnostics-delta.ts). Without `apply` nothing is written: the diff, the
 * content hash it was computed for and the delta. `apply: true` refuses an edit that introduces
 * errors (unless `accept_errors`) and writes through the one edit path (edit-apply.ts: hashes,
 * journal, backups, re-sync of the servers and the catalog); the answer then names the symbols the
 * new text declares, by their new ids. Bytes outside the edited range are never touched: the new
 * file is the old bytes before it, the new text, the old bytes after it.
 */
import path from 'node:path';

import { languageProfile } from '../../adapters/languages.js';
import type { CatalogSymbol } from '../../core/catalog.js';
import { LspgateError } from '../../errors/errors.js';
import { sha256 } from '../../lsp/documents.js';
import { containsPrivateKey } from '../../util/secret-files.js';
import type { ServiceCall } from '../call.js';
import { findReferences, type ReferenceEntry } from '../navigation/references.js';
import type { TargetInput } from '../navigation/resolve.js';
import { noProjectReason, refuseUnseen, unseenFolders } from '../navigation/unseen-scope.js';
import type { SymbolInvariant } from '../search/invariants-for.js';
import { type MustKeep, mustKeep } from '../search/must-keep.js';
import { type DeltaEntry, type DiagnosticsDelta, diagnosticsDelta, refuseUnchecked, type Unchecked } from './diagnostics-delta.js';
import { applyFileEdits } from './edit-apply.js';
import { editHash } from './edit-hash.js';
import { planEdit, type Planned, type SymbolEditKind } from './edit-plan.js';
import { ownerReferences, referencingOrder } from './owner-references.js';
import { parseCheck, verbatimRows } from './parse-check.js';
import { type SymbolSpan, symbolSpan } from './symbol-range.js';
import { type FileEdit, unifiedDiff } from './workspace-edit.js';

export interface SymbolEditInput extends TargetInput {
  body?: string | undefined;
  apply?: boolean | undefined;
  /** edit_hash from the preview: apply only if the file and the edit are still those previewed. */
  expected_hash?: string | undefined;
  accept_errors?: boolean | undefined;
  /** Apply although files of the diagnostics delta are unchecked. */
  accept_unchecked?: boolean | undefined;
  /** replace_symbol_body: the doc comment above the declaration is replaced too. */
  include_doc?: boolean | undefined;
  /** delete_symbol: delete although references remain. */
  force?: boolean | undefined;
}

export interface NewSymbol {
  symbol_id: string;
  qualified_name: string;
  kind: string;
  line: number;
}

export interface SymbolEditResult {
  operation: SymbolEditKind;
  symbol: string;
  symbol_id: string;
  file: string;
  applied: boolean;
  /** sha256 of the file's bytes before the edit. */
  content_hash: string;
  /** Binds the file's bytes and this edit: what `expected_hash` takes (edit-hash.ts). */
  edit_hash: string;
  /** Why nothing was (or would be) written although no error was raised: the new text is the text there now. */
  note?: string;
  new_hash?: string;
  diff: string;
  /** Lines of the file on disk the edit replaces or inserts at (1-based, inclusive). */
  line: number;
  end_line: number;
  parse: 'checked' | 'no_grammar';
  diagnostics: 'checked' | 'partial' | 'not_checked';
  diagnostics_reason?: string;
  /** Files of the delta not checked (no answer within the bound, no server, past the cap), with the reason. */
  unchecked: Unchecked[];
  server?: string;
  introduced: DeltaEntry[];
  removed: DeltaEntry[];
  /** The other files the delta covered: those referencing a changed signature or a deleted symbol (up to `cap`). */
  referencing?: Referencing;
  backup_dir?: string;
  new_symbols?: NewSymbol[];
  references?: { file: string; line: number; column: number }[];
  /** What must not break: the invariants the edited symbol's comments and raises state (seed 004's invariant chunks). */
  invariants?: SymbolInvariant[];
  /** The policy's category and guidance for the file, and the curated flows the symbol is a step of. */
  guidance?: MustKeep['guidance'];
  flows?: MustKeep['flows'];
}

export interface Referencing {
  files: string[];
  /** How many files reference it; only the first `cap` are checked. */
  total_files: number;
  cap: number;
  /** Folders the server does not load (its project config leaves them out): references there were not searched. */
  unseen_folders?: string[];
}

/** Referencing files diagnosed beside the edited one: each is one more diagnostics request before and after. */
export const MAX_REFERENCING_FILES = 20;

/** The new text: present unless deleting, and never a private key. */
function checkBody(kind: SymbolEditKind, body: string | undefined): void {
  if (kind !== 'delete_symbol' && (body === undefined || !body.trim())) throw new LspgateError('INVALID_INPUT', `${kind} needs \`body\`: the new text`);
  // a key pasted into the new text would be quoted by the diff, sent to a server and written: refused before anything
  if (body !== undefined && containsPrivateKey(body)) {
    throw new LspgateError('SECRET_FILE', `the new text of ${kind} holds a private key block: nothing is shown, checked or written`, { operation: kind });
  }
}

export async function symbolEdit(call: ServiceCall, kind: SymbolEditKind, input: SymbolEditInput): Promise<SymbolEditResult> {
  checkBody(kind, input.body);
  const span = await symbolSpan(call, input);
  const unbuilt = await buildExclusion(call, span);
  if (unbuilt) call.meta.warn(`${span.file}: ${unbuilt}`);
  const searched = kind === 'delete_symbol' && !unbuilt ? await remainingReferences(call, span, input) : undefined;
  const references = typeof searched === 'string' ? [] : searched;
  const plan = planEdit(
    kind,
    span,
    { body: input.body ?? '', includeDoc: input.include_doc },
    input.body ? await verbatimRows(span.file, input.body.replace(/\r\n?/g, '\n')) : new Set(),
  );
  const before = span.bytes.toString('utf8');
  const newBytes = Buffer.concat([span.bytes.subarray(0, plan.from), Buffer.from(plan.text, 'utf8'), span.bytes.subarray(plan.to)]);
  const after = newBytes.toString('utf8');
  const regionStart = span.bytes.subarray(0, plan.from).toString('utf8').length;
  const hash = boundHash(kind, span, input, before, after);
  call.meta.addSourceFile(span.abs);
  if (after === before) {
    // nothing to write, nothing to check, no undo slot taken
    const same = result(kind, span, plan, before, after, 'checked', { diagnostics: 'checked', introduced: [], removed: [], unchecked: [] }, hash);
    same.note = 'the new text is the text there now: nothing to write';
    return same;
  }
  const parse = kind === 'delete_symbol' ? 'checked' : await parseCheck(span.file, after, regionStart, regionStart + plan.text.length);
  const referencing = unbuilt
    ? undefined
    : typeof searched === 'string'
      ? { files: [], total_files: 0, cap: MAX_REFERENCING_FILES, unchecked: [{ file: span.file, reason: searched }] }
      : await referencingFiles(call, kind, span, plan, references, input);
  // a file its server does not build (gopls: build constraints) has no diagnostics to compare: unchecked, with the reason
  const delta: DiagnosticsDelta = unbuilt
    ? { diagnostics: 'not_checked', reason: unbuilt, introduced: [], removed: [], unchecked: [{ file: span.file, reason: unbuilt }] }
    : await diagnosticsDelta(
        call,
        span.abs,
        before,
        after,
        (referencing?.files ?? []).map((f) => path.join(call.root, f)),
        referencing?.unchecked ?? [],
      );
  const out = result(kind, span, plan, before, after, parse, delta, hash);
  if (referencing) {
    out.referencing = { files: referencing.files, total_files: referencing.total_files, cap: referencing.cap };
    if (referencing.unseen_folders) out.referencing.unseen_folders = referencing.unseen_folders;
  }
  if (references) out.references = references.map((r) => ({ file: r.file, line: r.line, column: r.column }));
  const { invariants, ...guided } = await mustKeep(call, span.symbol);
  if (invariants.length) out.invariants = invariants;
  Object.assign(out, guided);
  if (!input.apply) return out;
  refuseApply(call, kind, span, input, { unbuilt, referencing, delta });
  const edit: FileEdit = { absPath: span.abs, file: span.file, before, content_hash: sha256(before), after, edits: 1, diff: out.diff };
  // the edit hash was checked above; the journal checks the bytes read for it are still on disk
  const applied = await applyFileEdits(call, [edit], undefined, kind);
  out.applied = true;
  out.new_hash = sha256(after);
  out.backup_dir = applied.backup_dir;
  out.new_symbols = await newSymbols(call, span.file, after, regionStart, regionStart + plan.text.length, kind);
  return out;
}

/** The preview's edit_hash; on an apply, CONTENT_MODIFIED unless `expected_hash` (when given) is it. */
function boundHash(kind: SymbolEditKind, span: SymbolSpan, input: SymbolEditInput, before: string, after: string): string {
  const { body, include_doc, force } = input;
  const hash = editHash({ operation: kind, symbol_id: span.symbol.symbol_id, before, after, body, include_doc, force });
  if (input.apply && input.expected_hash !== undefined && input.expected_hash !== hash) {
    throw new LspgateError(
      'CONTENT_MODIFIED',
      `${kind} of ${span.symbol.qualified_name}: the file or the edit is not the one previewed (expected_hash takes the preview's edit_hash, which binds the file's bytes and the edit); nothing was written: preview again`,
      { file: span.file, content_hash: sha256(before), edit_hash: hash },
    );
  }
  return hash;
}

/**
 * An apply the preview cannot vouch for: a delete whose references could not be searched, a reference
 * search blind to folders, new errors (unless accept_errors), unchecked files (unless accept_unchecked).
 */
function refuseApply(
  call: ServiceCall,
  kind: SymbolEditKind,
  span: SymbolSpan,
  input: SymbolEditInput,
  checks: { unbuilt: string | undefined; referencing: Referencing | undefined; delta: DiagnosticsDelta },
): void {
  const { unbuilt, referencing, delta } = checks;
  if (unbuilt && kind === 'delete_symbol' && !input.force)
    throw new LspgateError(
      'INVALID_INPUT',
      `delete_symbol of ${span.symbol.qualified_name} could not check its references: ${unbuilt}; nothing was written (force: true deletes unchecked)`,
      {
        file: span.file,
        reason: unbuilt,
      },
    );
  // a reference search blind to part of the workspace cannot vouch for a delete or a signature change
  if (referencing?.unseen_folders)
    refuseUnseen(
      `${kind} of ${span.symbol.qualified_name}`,
      referencing.unseen_folders,
      unseenFolders(call, span.symbol.language).config,
      kind === 'delete_symbol' ? 'force' : 'accept_errors',
    );
  const errors = delta.introduced.filter((d) => d.severity === 'error');
  if (errors.length && !input.accept_errors) {
    throw new LspgateError(
      'INVALID_INPUT',
      `${kind} of ${span.symbol.qualified_name} introduces ${errors.length} error(s) (first: line ${errors[0]!.line}: ${errors[0]!.message}); nothing was written: fix the text, or apply with accept_errors: true`,
      {
        introduced: errors.slice(0, 50),
      },
    );
  }
  refuseUnchecked(`${kind} of ${span.symbol.qualified_name}`, delta, input.accept_unchecked);
}

/** Why the file's server has no answer for it at all (gopls: a file its build constraints exclude), one cheap request to find out. */
async function buildExclusion(call: ServiceCall, span: SymbolSpan): Promise<string | undefined> {
  if (!languageProfile(span.symbol.language)?.project.noProjectReason) return undefined;
  try {
    await findReferences(call, { symbol_id: span.symbol.symbol_id, include_declaration: false, max_results: 1 });
    return undefined;
  } catch (e) {
    return noProjectReason(e, span.symbol.language, span.bytes.toString('utf8'), span.file);
  }
}

/** The references left outside the declaration; a string (why) when they could not be searched and `force` deletes unchecked. */
async function remainingReferences(call: ServiceCall, span: SymbolSpan, input: SymbolEditInput): Promise<ReferenceEntry[] | string> {
  let refs: ReferenceEntry[];
  try {
    const found = await findReferences(call, { symbol_id: span.symbol.symbol_id, include_declaration: false, max_results: 200 });
    // uses the server reads as unreachable here (pyright: a module behind a sys.platform guard) are uses all the same
    refs = [...found.references, ...(found.unreachable ?? []).map((u) => ({ ...u, isWrite: false }))];
  } catch (e) {
    if (input.force) {
      call.meta.warn(`references to ${span.symbol.qualified_name} were not checked: ${(e as Error).message}`);
      return `the references to ${span.symbol.qualified_name} could not be searched: ${(e as Error).message}`;
    }
    if (e instanceof LspgateError)
      throw new LspgateError(
        e.code,
        `delete_symbol checks that no reference remains, and could not: ${e.message}; nothing was written (force: true deletes unchecked)`,
        e.details,
      );
    throw e;
  }
  // uses inside the declaration itself (recursion) go with it
  const { symbol } = span;
  const outside = refs.filter((r) => r.file !== span.file || r.line < symbol.line || r.line > symbol.end_line);
  if (outside.length && !input.force) {
    const files = [...new Set(outside.map((r) => r.file))];
    throw new LspgateError(
      'INVALID_INPUT',
      `${symbol.qualified_name} is still referenced ${outside.length} time(s) in ${files.length} file(s) (${files.slice(0, 3).join(', ')}${files.length > 3 ? ', …' : ''}); nothing was written: remove the references first, or delete with force: true`,
      {
        references: outside.slice(0, 100).map((r) => ({ file: r.file, line: r.line, column: r.column })),
      },
    );
  }
  return outside;
}

function result(
  kind: SymbolEditKind,
  span: SymbolSpan,
  plan: Planned,
  before: string,
  after: string,
  parse: 'checked' | 'no_grammar',
  delta: DiagnosticsDelta,
  hash: string,
): SymbolEditResult {
  const lineOf = (byte: number) => span.bytes.subarray(0, byte).toString('utf8').split('\n').length;
  const out: SymbolEditResult = {
    operation: kind,
    symbol: span.symbol.qualified_name,
    symbol_id: span.symbol.symbol_id,
    file: span.file,
    applied: false,
    content_hash: sha256(before),
    edit_hash: hash,
    diff: unifiedDiff(span.file, before, after, 3),
    line: lineOf(plan.from),
    end_line: Math.max(lineOf(plan.from), lineOf(Math.max(plan.from, plan.to - 1))),
    parse,
    diagnostics: delta.diagnostics,
    unchecked: delta.unchecked,
    introduced: delta.introduced,
    removed: delta.removed,
  };
  if (delta.reason) out.diagnostics_reason = delta.reason;
  if (delta.server) out.server = delta.server;
  return out;
}

/**
 * The files whose diagnostics an edit can change besides its own: those referencing a deleted
 * symbol, a symbol whose signature the new text changes, or the interface or trait an insertion adds a
 * member to; undefined for any other edit.
 */
async function referencingFiles(
  call: ServiceCall,
  kind: SymbolEditKind,
  span: SymbolSpan,
  plan: Planned,
  refs: ReferenceEntry[] | undefined,
  input: SymbolEditInput,
): Promise<(Referencing & { unchecked: Unchecked[] }) | undefined> {
  let found = refs;
  const container = kind === 'insert_before_symbol' || kind === 'insert_after_symbol' ? await contractOf(call, span) : undefined;
  // a member added to an interface or trait is owed by everything typed by it (implementers, object literals)
  const changed = kind === 'replace_symbol_body' && signatureChanged(span.bytes.subarray(plan.from, plan.to).toString('utf8'), plan.text);
  const subject = container ?? (kind === 'delete_symbol' || changed ? span.symbol : undefined);
  if (!subject) return undefined;
  if (kind !== 'delete_symbol') {
    try {
      found = (await findReferences(call, { symbol_id: subject.symbol_id, include_declaration: false, max_results: 500 })).references;
    } catch (e) {
      const what = container
        ? `${container.qualified_name} gains a member, but the code typed by it`
        : `the signature of ${subject.qualified_name} changes, but its callers`;
      call.meta.warn(`${what} were not checked: ${(e as Error).message}`);
      // unchecked, never "no callers": an apply needs accept_unchecked
      return {
        files: [],
        total_files: 0,
        cap: MAX_REFERENCING_FILES,
        unchecked: [{ file: span.file, reason: `${what} could not be searched: ${(e as Error).message}` }],
      };
    }
  }
  if (!found) return undefined;
  const files = referencingOrder(span.file, found, changed && !container ? await ownerReferences(call, span.symbol) : []);
  if (files.length > MAX_REFERENCING_FILES)
    call.meta.warn(`${files.length} files reference ${subject.qualified_name}: the diagnostics delta covers the first ${MAX_REFERENCING_FILES}`);
  const past = files
    .slice(MAX_REFERENCING_FILES)
    .map((file) => ({ file, reason: `past the cap of ${MAX_REFERENCING_FILES} referencing files the delta checks` }));
  const out: Referencing & { unchecked: Unchecked[] } = {
    files: files.slice(0, MAX_REFERENCING_FILES),
    total_files: files.length,
    cap: MAX_REFERENCING_FILES,
    unchecked: past,
  };
  const unseen = unseenFolders(call, span.symbol.language);
  if (unseen.folders.length && !(kind === 'delete_symbol' ? input.force : input.accept_errors)) out.unseen_folders = unseen.folders;
  return out;
}

/** The interface or trait an insertion beside `span`'s symbol adds a member to, if any. */
async function contractOf(call: ServiceCall, span: SymbolSpan): Promise<CatalogSymbol | undefined> {
  if (!span.symbol.parent) return undefined;
  const parent = await call.workspace.catalog.byId(span.symbol.parent);
  return parent && (parent.kind === 'interface' || parent.kind === 'trait') ? parent : undefined;
}

/**
 * Whether the declaration's head — its text up to the body (the first `{`, or a `:` ending a line
 * as Python's `def …:`), whitespace ignored — differs: a changed name, parameter or result type,
 * which can break callers. A body-only change cannot, and costs no reference search.
 */
export function signatureChanged(oldText: string, newText: string): boolean {
  const head = (t: string) => {
    const brace = t.indexOf('{');
    const colon = /:[ \t]*(#[^\n]*)?\r?\n/.exec(t)?.index ?? -1;
    const cut = [brace, colon].filter((i) => i >= 0);
    return (cut.length ? t.slice(0, Math.min(...cut)) : t).replace(/\s+/g, '');
  };
  return head(oldText) !== head(newText);
}

/** The catalog's symbols (refreshed by the apply) whose names are inside the new text (a range may start at a doc comment above it). */
async function newSymbols(call: ServiceCall, file: string, after: string, from: number, to: number, kind: SymbolEditKind): Promise<NewSymbol[]> {
  if (kind === 'delete_symbol') return [];
  const first = after.slice(0, from).split('\n').length;
  const last = after.slice(0, Math.max(from, to - 1)).split('\n').length;
  const syms = await call.workspace.catalog.fileSymbols(file);
  return syms
    .filter((s) => s.selection_line >= first && s.selection_line <= last)
    .map((s) => ({ symbol_id: s.symbol_id, qualified_name: s.qualified_name, kind: s.kind, line: s.line }));
}
