/**
 * LSP Diagnostic → the answer's entry: 1-based lines and columns in characters of the line, the
 * severity as a word, codes as strings, related information with workspace-relative paths.
 */
import { type Diagnostic, DiagnosticSeverity, DiagnosticTag } from 'vscode-languageserver-protocol';

import { fromLspPosition } from '../../lsp/positions.js';
import type { PositionEncoding } from '../../lsp/types.js';
import { SEVERITIES } from '../../schema/vocabularies.js';
import { redactPrivateKeys } from '../../util/secret-files.js';
import { locate } from '../locations.js';

export { SEVERITIES };
export type Severity = (typeof SEVERITIES)[number];

export interface RelatedEntry {
  file: string;
  line: number;
  column: number;
  message: string;
}

export interface DiagnosticEntry {
  line: number;
  column: number;
  end_line: number;
  end_column: number;
  severity: Severity;
  code?: string;
  source?: string;
  message: string;
  tags?: ('unnecessary' | 'deprecated')[];
  related?: RelatedEntry[];
}

/** LSP: "If omitted it is up to the client to interpret diagnostics as error, warning, info or hint." */
export function severityOf(d: Diagnostic): Severity {
  switch (d.severity) {
    case DiagnosticSeverity.Warning:
      return 'warning';
    case DiagnosticSeverity.Information:
      return 'information';
    case DiagnosticSeverity.Hint:
      return 'hint';
    case DiagnosticSeverity.Error:
    case undefined:
      return 'error';
    default:
      return 'error';
  }
}

export function atLeast(s: Severity, min: Severity): boolean {
  return SEVERITIES.indexOf(s) <= SEVERITIES.indexOf(min);
}

export interface EntryContext {
  root: string;
  text: string;
  encoding: PositionEncoding;
}

export function toDiagnosticEntry(d: Diagnostic, ctx: EntryContext): DiagnosticEntry {
  const s = fromLspPosition(ctx.text, d.range.start, ctx.encoding);
  const e = fromLspPosition(ctx.text, d.range.end, ctx.encoding);
  const out: DiagnosticEntry = {
    line: s.line,
    column: s.column,
    end_line: e.line,
    end_column: e.column,
    severity: severityOf(d),
    message: messageText(d.message),
  };
  if (d.code !== undefined && d.code !== null) out.code = String(d.code);
  if (d.source) out.source = d.source;
  const tags = (d.tags ?? []).map((t): 'unnecessary' | 'deprecated' => (t === DiagnosticTag.Unnecessary ? 'unnecessary' : 'deprecated'));
  if (tags.length) out.tags = tags;
  const related = (d.relatedInformation ?? []).flatMap((r): RelatedEntry[] => {
    // on its real path like every location; a secret file or a virtual document is left out
    const where = locate(ctx.root, r.location.uri);
    if (where.where === 'refused') return [];
    // Other files' positions are given as the server counts them (0-based + 1): their text is not read.
    return [{ file: where.file, line: r.location.range.start.line + 1, column: r.location.range.start.character + 1, message: messageText(r.message) }];
  });
  if (related.length) out.related = related;
  return out;
}

/** LSP 3.18 lets a message be MarkupContent; the answer's message is its text. */
function messageText(m: string | { value: string }): string {
  // a message may quote a string constant's value (a type mismatch shows the literal type)
  return redactPrivateKeys(typeof m === 'string' ? m : m.value);
}

/** Order of the answer: by position, then severity. */
export function compareEntries(a: DiagnosticEntry, b: DiagnosticEntry): number {
  return (
    a.line - b.line ||
    a.column - b.column ||
    SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
    (a.message < b.message ? -1 : a.message > b.message ? 1 : 0)
  );
}
