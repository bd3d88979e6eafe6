/**
 * Uses of a name a server reports no references at, because it reads the code around them as
 * unreachable on this machine. pyright evaluates `sys.platform`, `sys.version_info` and `os.name`
 * statically: after `if sys.platform != "win32": raise ImportError` at the top of a module, the
 * rest of it is unreachable on Linux, its `from util import helper` is never bound, and references
 * to `helper` leave that module out — with nothing in the answer saying so.
 *
 * Found in two steps. First the files of the language whose text has the profile's guard (a
 * condition the server evaluates statically) before a spelling of the name the answer does not
 * already have; the guard scan is memoized by each file's hash. Then, for at most
 * MAX_CHECKED of them, the server's own hint that the code is unreachable ("Code is structurally
 * unreachable"), with the spellings inside its range. A reference answer warns with them, and a
 * delete counts them as the uses they are.
 */
import path from 'node:path';

import { type Diagnostic, DiagnosticSeverity, DiagnosticTag } from 'vscode-languageserver-protocol';

import { languageProfile } from '../../adapters/languages.js';
import type { Workspace } from '../../core/workspace.js';
import { LspgateError } from '../../errors/errors.js';
import type { ServiceCall } from '../call.js';
import { documentDiagnostics } from '../diagnostics/diagnostics-source.js';
import { diskText } from '../disk-texts.js';
import { rangeContains } from '../symbols.js';

/** Files whose diagnostics are asked for in one answer: each costs the server a check of the file. */
const MAX_CHECKED = 8;

export interface UnreachableUse {
  file: string;
  line: number;
  column: number;
}

export interface UnreachableUses {
  /** Spellings of the name inside code the server reports as unreachable, by file and position. */
  uses: UnreachableUse[];
  /** The server's hint that names such code, as it said it. */
  hint: string;
  /** Files with a guard before a spelling that were not checked (past MAX_CHECKED, or the server failed). */
  unchecked: string[];
}

/** Per workspace, per file: the hash the scan read and the offset of the first guard (-1: none). */
const guards = new WeakMap<Workspace, Map<string, { hash: string; at: number }>>();

/** Offset of the first line that tests one of `conditions` in an `if`, `elif` or `assert` (-1: none). */
function firstGuard(text: string, conditions: readonly string[]): number {
  let first = -1;
  for (const c of conditions)
    for (let at = text.indexOf(c); at >= 0 && (first < 0 || at < first); at = text.indexOf(c, at + c.length)) {
      const start = text.lastIndexOf('\n', at - 1) + 1;
      if (/^(?:if|elif|assert)\b/.test(text.slice(start, at).trimStart())) {
        first = start;
        break;
      }
    }
  return first;
}

function guardOffset(call: ServiceCall, rel: string, hash: string, size: number, conditions: readonly string[]): number {
  let memo = guards.get(call.workspace);
  if (!memo) guards.set(call.workspace, (memo = new Map()));
  const known = memo.get(rel);
  if (known?.hash === hash) return known.at;
  // a file gone since it was cataloged has no guard to report
  const text = size <= call.env.limits.maxFileBytes ? diskText(path.join(call.root, rel)) : undefined;
  const at = text === undefined ? -1 : firstGuard(text, conditions);
  memo.set(rel, { hash, at });
  return at;
}

/** Line and column (1-based, UTF-16 columns as the server counts them) of each whole-word spelling of `name` at or after `from`. */
function spellings(text: string, name: string, from: number): { line: number; column: number; offset: number }[] {
  const word = new RegExp(`(?<![\\w$])${name.replace(/[$]/g, '\\$')}(?![\\w$])`, 'g');
  word.lastIndex = from;
  const out: { line: number; column: number; offset: number }[] = [];
  let line = 1;
  let counted = 0;
  for (let m = word.exec(text); m; m = word.exec(text)) {
    for (let nl = text.indexOf('\n', counted); nl >= 0 && nl < m.index; nl = text.indexOf('\n', nl + 1)) {
      line++;
      counted = nl + 1;
    }
    out.push({ line, column: m.index - counted + 1, offset: m.index });
  }
  return out;
}

function messageOf(d: Diagnostic): string {
  return typeof d.message === 'string' ? d.message : d.message.value;
}

/**
 * The spellings of `name` in files of `language` that the server reads as unreachable there, those
 * the answer reported (`reported`: `file:line:column` keys) left out. Undefined when the language's
 * profile names no such guard, or when no file has one before an unreported spelling.
 */
export async function unreachableUses(call: ServiceCall, language: string, name: string, reported: ReadonlySet<string>): Promise<UnreachableUses | undefined> {
  const profile = languageProfile(language)?.project.unreachable;
  if (!profile || !/^[\w$]+$/.test(name)) return undefined;
  const candidates: { rel: string; text: string; at: number }[] = [];
  const unreported = (text: string, rel: string, at = 0) => spellings(text, name, at).filter((s) => !reported.has(`${rel}:${s.line}:${s.column}`));
  for (const [rel, entry] of call.workspace.catalog.files()) {
    if (entry.language !== language) continue;
    const at = guardOffset(call, rel, entry.hash, entry.size, profile.conditions);
    if (at < 0) continue;
    // the text the guard scan read, from the disk-text cache (re-read only when its stat moved)
    const text = diskText(path.join(call.root, rel));
    if (text !== undefined && unreported(text, rel, at).length) candidates.push({ rel, text, at });
  }
  if (!candidates.length) return undefined;
  candidates.sort((a, b) => (a.rel < b.rel ? -1 : 1));
  const out: UnreachableUses = { uses: [], hint: '', unchecked: candidates.slice(MAX_CHECKED).map((c) => c.rel) };
  for (const c of candidates.slice(0, MAX_CHECKED)) {
    let hints: Diagnostic[];
    try {
      const file = await call.file(path.join(call.root, c.rel));
      const report = await documentDiagnostics(file.session, file.absPath, { maxFileBytes: call.env.limits.maxFileBytes, signal: call.signal });
      hints = report.diagnostics.filter(
        (d) => (d.severity === DiagnosticSeverity.Hint || d.tags?.includes(DiagnosticTag.Unnecessary)) && messageOf(d).toLowerCase().includes(profile.hint),
      );
    } catch (e) {
      if (e instanceof LspgateError && e.code === 'CANCELLED') throw e;
      out.unchecked.push(c.rel);
      continue;
    }
    for (const s of unreported(c.text, c.rel, c.at)) {
      const h = hints.find((d) => rangeContains(d.range, { line: s.line - 1, character: s.column - 1 }));
      if (!h) continue;
      out.uses.push({ file: c.rel, line: s.line, column: s.column });
      out.hint ||= messageOf(h);
    }
  }
  return out.uses.length || out.unchecked.length ? out : undefined;
}

/** The warning of a reference answer that left such uses out. */
export function unreachableWarning(server: string, name: string, found: UnreachableUses): string {
  const byFile = new Map<string, string[]>();
  for (const u of found.uses) byFile.set(u.file, [...(byFile.get(u.file) ?? []), `${u.line}:${u.column}`]);
  const named = [...byFile].slice(0, 5).map(([file, at]) => `${file} at ${at.slice(0, 6).join(', ')}${at.length > 6 ? ', …' : ''}`);
  const more = byFile.size > 5 ? ` and ${byFile.size - 5} more file(s)` : '';
  const found_ = found.uses.length
    ? `${server} reports no references inside code it reads as unreachable on this machine ("${found.hint}"): ${name} is spelled there in ${named.join('; ')}${more}; check those uses by hand`
    : '';
  const unchecked = found.unchecked.length
    ? `${found.unchecked.length} more file(s) spelling ${name} behind a condition ${server} evaluates for this machine were not checked for unreachable code (${found.unchecked.slice(0, 3).join(', ')}${found.unchecked.length > 3 ? ', …' : ''})`
    : '';
  return [found_, unchecked].filter(Boolean).join('; ');
}
