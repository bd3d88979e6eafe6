/**
 * Where an edit by symbol puts its text: the byte range it replaces and the new text shaped like the
 * file (indentation, line endings) and spaced like the symbol's neighbours (blank lines between
 * declarations as the file or its style guide has them). Deletions take the declaration's whole lines
 * and one run of blank lines with them.
 */
import { languageProfile } from '../../adapters/languages.js';
import { blankRunAfter, blankRunBefore, docStartOf, type SymbolSpan, wholeLines } from './symbol-range.js';
import { fileStyle, leadOf, lineEndByte, lineStartByte, shapeText } from './symbol-text.js';

export type SymbolEditKind = 'replace_symbol_body' | 'insert_before_symbol' | 'insert_after_symbol' | 'delete_symbol';

/** The caller's text and whether it replaces the doc comment too (`include_doc`; unsaid: when the text opens with one). */
export interface EditText {
  body: string;
  includeDoc: boolean | undefined;
}

/** The new file's bytes [from, to) become `text`. */
export interface Planned {
  from: number;
  to: number;
  text: string;
}

/** Whether `text` opens with a comment (`/*`, `//`, or `#` that is not a `#[` attribute). */
function startsWithComment(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('/*') || t.startsWith('//') || (t.startsWith('#') && !t.startsWith('#['));
}

/** Where the edit goes and what it writes there. */
export function planEdit(kind: SymbolEditKind, span: SymbolSpan, input: EditText, verbatim: ReadonlySet<number>): Planned {
  const { bytes, start, end, docStart } = span;
  const text = bytes.toString('utf8');
  const style = fileStyle(text);
  const lineStart = lineStartByte(bytes, docStart);
  const base = leadOf(bytes.subarray(lineStart, lineEndByte(bytes, lineStart)).toString('utf8'));
  const body = input.body;
  const gap = separation(span);
  switch (kind) {
    case 'replace_symbol_body': {
      // new text that brings its own doc comment (as get_symbol's source does) replaces the old one: two would be kept otherwise
      const withDoc = input.includeDoc ?? (docStart < start && startsWithComment(body));
      const from = withDoc ? docStart : start;
      return { from, to: end, text: shapeText(body, style, base, true, verbatim) };
    }
    case 'insert_before_symbol': {
      const at = lineStartByte(bytes, docStart);
      return { from: at, to: at, text: shapeText(body, style, base, false, verbatim) + style.eol.repeat(1 + gap) };
    }
    case 'insert_after_symbol': {
      const at = lineEndByte(bytes, end - 1);
      const open = at === bytes.length && bytes[at - 1] !== 0x0a;
      // the file's last line had no line ending: the new text goes after one, and ends as the file did
      const shaped = shapeText(body, style, base, false, verbatim);
      return open ? { from: at, to: at, text: style.eol.repeat(1 + gap) + shaped } : { from: at, to: at, text: style.eol.repeat(gap) + shaped + style.eol };
    }
    case 'delete_symbol': {
      const whole = wholeLines(bytes, docStart, end);
      if (!whole.widened) return { from: whole.from, to: whole.to, text: '' };
      // the blank lines after it go too; when none follow (the last member), the ones before it
      const after = blankRunAfter(bytes, whole.to);
      if (after > whole.to) return { from: whole.from, to: after, text: '' };
      return { from: blankRunBefore(bytes, whole.from), to: whole.to, text: '' };
    }
  }
}

/**
 * Blank lines between inserted text and the symbol: the style guide's around a top-level declaration
 * (the profile's topLevelGap: PEP 8's two); else the run directly above the symbol when a sibling declaration precedes it, else the
 * run directly below when one follows, else the file's usual gap between siblings (1 when none).
 */
function separation(span: SymbolSpan): number {
  const topLevel = languageProfile(span.symbol.language)?.declarations.topLevelGap;
  if (topLevel !== undefined && !span.symbol.parent) return topLevel;
  const { bytes, siblings } = span;
  const i = siblings.findIndex((s) => s.symbol_id === span.symbol.symbol_id);
  if (i > 0) return blankLinesAbove(bytes, span.docStart);
  if (i >= 0 && i < siblings.length - 1) return blankLinesBelow(bytes, span.end);
  const gaps = siblings.slice(1).map((s) => blankLinesAbove(bytes, docStartOf(bytes, s.byte_offset)));
  return mode(gaps) ?? 1;
}

function mode(xs: number[]): number | undefined {
  const counts = new Map<number, number>();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0];
}

const newlines = (bytes: Buffer, from: number, to: number) => bytes.subarray(from, to).filter((b) => b === 0x0a).length;

/** Blank lines directly above the line holding byte `at`. */
function blankLinesAbove(bytes: Buffer, at: number): number {
  const ls = lineStartByte(bytes, at);
  return newlines(bytes, blankRunBefore(bytes, ls), ls);
}

/** Blank lines directly below the line holding byte `end - 1`. */
function blankLinesBelow(bytes: Buffer, end: number): number {
  const le = lineEndByte(bytes, Math.max(0, end - 1));
  return newlines(bytes, le, blankRunAfter(bytes, le));
}
