/**
 * The text of a symbol edit shaped like the file it goes into: the file's line ending (CRLF stays
 * CRLF), its indentation unit (tabs, or its width of spaces) and the indentation of the place it
 * goes to. A caller writes the body as it likes (any indentation, `\n` endings); the file never gets
 * a mix of styles from an edit.
 */

export interface FileStyle {
  eol: '\n' | '\r\n';
  /** One level of indentation in the file: a tab or N spaces. */
  unit: string;
}

/** The file's line ending (its first) and indentation unit (tabs when more lines open with a tab; else the smallest space step). */
export function fileStyle(text: string): FileStyle {
  const nl = text.indexOf('\n');
  const eol = nl > 0 && text[nl - 1] === '\r' ? '\r\n' : '\n';
  return { eol, unit: indentUnit(text.split(/\r?\n/)) ?? '  ' };
}

/**
 * A tab, or the most frequent step between the space indentations of consecutive lines; undefined
 * when nothing is indented. Lines that continue a bracket or a backslash of the line before are
 * left out: they are aligned to the bracket (`def f(self,` then `x):` six spaces in), and their steps
 * (6, then back by 2 to the body) would be read as the unit.
 */
export function indentUnit(lines: string[]): string | undefined {
  const continued = continuationLines(lines);
  // a bracket the scan misread (one in a comment) leaves every later line continued: then all lines count
  return unitOf(lines, continued) ?? unitOf(lines, new Set());
}

function unitOf(lines: string[], continued: Set<number>): string | undefined {
  let tabs = 0;
  let spaced = 0;
  const steps = new Map<number, number>();
  let prev = 0;
  for (const [i, line] of lines.entries()) {
    // ` * text` inside a doc comment sits one space in from its `/**`: no step of the indentation
    if (!line.trim() || continued.has(i) || line.trimStart().startsWith('*')) continue;
    const lead = /^[ \t]*/.exec(line)![0];
    if (lead.startsWith('\t')) tabs++;
    else if (lead.length) spaced++;
    if (!lead.includes('\t')) {
      const step = Math.abs(lead.length - prev);
      if (step > 0 && step <= 8) steps.set(step, (steps.get(step) ?? 0) + 1);
      prev = lead.length;
    }
  }
  if (!tabs && !spaced) return undefined;
  if (tabs > spaced) return '\t';
  // the most frequent step between neighbouring lines: 2 or 4 in practice (a continuation line is rarer)
  const best = [...steps].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0];
  if (!best && continued.size) return undefined;
  return ' '.repeat(best ? best[0] : 4);
}

/** Indices of the lines that start inside an open `(` or `[` or after a line ending with `\\` (string literals on a line skipped, roughly). */
function continuationLines(lines: string[]): Set<number> {
  const out = new Set<number>();
  let depth = 0;
  let slash = false;
  for (const [i, line] of lines.entries()) {
    if (depth > 0 || slash) out.add(i);
    let quote = '';
    for (let k = 0; k < line.length; k++) {
      const ch = line[k]!;
      if (quote) {
        if (ch === '\\') k++;
        else if (ch === quote) quote = '';
      } else if (ch === '"' || ch === "'" || ch === '`') quote = ch;
      else if ((ch === '/' && line[k + 1] === '/') || (ch === '#' && (k === 0 || line[k - 1] === ' '))) break;
      else if (ch === '(' || ch === '[') depth++;
      else if (ch === ')' || ch === ']') depth = Math.max(0, depth - 1);
    }
    slash = line.trimEnd().endsWith('\\');
  }
  return out;
}

/** The leading whitespace of a line. */
export function leadOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

/**
 * A caller's text re-indented for the file: its own common indentation removed (and the
 * indentation of its place, when it was copied from there: unplace), each line's
 * remaining levels (in the text's own unit) given in the file's unit, `base` before every line but
 * the first when `firstBare` (the first goes after indentation already in the file), every line
 * ending as the file's do. Lines in `verbatim` (indices into the text's lines) are kept as written. Blank lines stay empty; leading and trailing blank lines are dropped.
 */
export function shapeText(body: string, style: FileStyle, base: string, firstBare: boolean, verbatim: ReadonlySet<number> = new Set()): string {
  const all = body.replace(/\r\n?/g, '\n').split('\n');
  let top = 0;
  while (top < all.length && !all[top]!.trim()) top++;
  let bottom = all.length;
  while (bottom > top && !all[bottom - 1]!.trim()) bottom--;
  const lines = all.slice(top, bottom);
  // the inside of a string literal (verbatimRows) keeps its bytes: it takes no part in the shaping
  const kept = lines.map((_, i) => verbatim.has(top + i));
  const code = lines.filter((_, i) => !kept[i]);
  unplace(code, base);
  let k = 0;
  for (let i = 0; i < lines.length; i++) if (!kept[i]) lines[i] = code[k++]!;
  const own = indentUnit(code) ?? style.unit;
  const width = (lead: string) => [...lead].reduce((n, ch) => n + (ch === '\t' ? own.length || 1 : 1), 0);
  const unitWidth = own === '\t' ? 1 : own.length;
  const levelsOf = (lead: string) =>
    own === '\t' ? [...lead].filter((c) => c === '\t').length + Math.floor(lead.replace(/\t/g, '').length / 4) : Math.floor(width(lead) / unitWidth);
  const restOf = (lead: string) => (own === '\t' ? '' : ' '.repeat(width(lead) % unitWidth));
  const common = Math.min(...code.filter((l) => l.trim()).map((l) => levelsOf(leadOf(l))));
  const shaped = lines.map((line, i) => {
    if (kept[i]) return line;
    if (!line.trim()) return '';
    const lead = leadOf(line);
    const levels = levelsOf(lead) - (Number.isFinite(common) ? common : 0);
    const indent = style.unit.repeat(Math.max(0, levels)) + restOf(lead);
    return (i === 0 && firstBare ? '' : base) + indent + line.slice(lead.length).trimEnd();
  });
  return shaped.join(style.eol);
}

/**
 * Text copied as get_symbol answers a declaration — its first line bare, the lines after it still at
 * the indentation of its place in the file — is moved back to column 0 (in place), so that `base` is
 * not given twice. It is told from text written at column 0 (whose lines may happen to start with
 * `base`: a Python body one level deep under a one-level base) by the line after the first header
 * line that opens a block (ends with `{` or `:`; else the second line): once `base` is taken off,
 * it is still indented, as a body or a continued header always is.
 */
function unplace(lines: string[], base: string): void {
  if (!base || lines.length < 2 || leadOf(lines[0]!) !== '') return;
  const rest = lines.slice(1).filter((l) => l.trim());
  if (!rest.length || !rest.every((l) => l.startsWith(base))) return;
  const opener = lines.findIndex((l, i) => i < lines.length - 1 && /[{:]$/.test(l.trimEnd()));
  const probe = lines.slice(Math.max(opener, 0) + 1).find((l) => l.trim())!;
  if (leadOf(probe.slice(base.length)) === '') return;
  for (let i = 1; i < lines.length; i++) if (lines[i]!.trim()) lines[i] = lines[i]!.slice(base.length);
}

/** Byte offset in `buf` of the start of the line that holds byte `off`. */
export function lineStartByte(buf: Buffer, off: number): number {
  let i = off;
  while (i > 0 && buf[i - 1] !== 0x0a) i--;
  return i;
}

/** Byte offset just after the line ending of the line that holds byte `off` (the end of the buffer on the last line). */
export function lineEndByte(buf: Buffer, off: number): number {
  let i = off;
  while (i < buf.length && buf[i] !== 0x0a) i++;
  return i < buf.length ? i + 1 : i;
}

/** True when the bytes [from, to) are spaces and tabs only. */
export function blank(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (buf[i] !== 0x20 && buf[i] !== 0x09) return false;
  return true;
}
