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

/** A tab, or the smallest step between the space indentations of consecutive lines; undefined when nothing is indented. */
export function indentUnit(lines: string[]): string | undefined {
  let tabs = 0;
  let spaced = 0;
  const steps = new Map<number, number>();
  let prev = 0;
  for (const line of lines) {
    if (!line.trim()) continue;
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
  return ' '.repeat(best ? best[0] : 4);
}

/** The leading whitespace of a line. */
export function leadOf(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

/**
 * A caller's text re-indented for the file: its own common indentation removed, each line's
 * remaining levels (in the text's own unit) given in the file's unit, `base` before every line but
 * the first when `firstBare` (the first goes after indentation already in the file), every line
 * ending as the file's do. Blank lines stay empty; leading and trailing blank lines are dropped.
 */
export function shapeText(body: string, style: FileStyle, base: string, firstBare: boolean): string {
  const lines = body.replace(/\r\n?/g, '\n').split('\n');
  while (lines.length && !lines[0]!.trim()) lines.shift();
  while (lines.length && !lines[lines.length - 1]!.trim()) lines.pop();
  const own = indentUnit(lines) ?? style.unit;
  const width = (lead: string) => [...lead].reduce((n, ch) => n + (ch === '\t' ? own.length || 1 : 1), 0);
  const unitWidth = own === '\t' ? 1 : own.length;
  const levelsOf = (lead: string) => (own === '\t' ? [...lead].filter((c) => c === '\t').length + Math.floor(lead.replace(/\t/g, '').length / 4) : Math.floor(width(lead) / unitWidth));
  const restOf = (lead: string) => (own === '\t' ? '' : ' '.repeat(width(lead) % unitWidth));
  const common = Math.min(...lines.filter((l) => l.trim()).map((l) => levelsOf(leadOf(l))));
  const shaped = lines.map((line, i) => {
    if (!line.trim()) return '';
    const lead = leadOf(line);
    const levels = levelsOf(lead) - (Number.isFinite(common) ? common : 0);
    const indent = style.unit.repeat(Math.max(0, levels)) + restOf(lead);
    return (i === 0 && firstBare ? '' : base) + indent + line.slice(lead.length).trimEnd();
  });
  return shaped.join(style.eol);
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
