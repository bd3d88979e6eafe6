/**
 * Reading documentation and signatures straight from source lines: the doc comment above a
 * declaration (JSDoc, PHPDoc, Go `//`, Python `#`), and the declaration's own line(s) as its signature. Servers do not send docs in documentSymbol, and
 * hovering every symbol of a repository would cost a round trip each.
 */

const MAX_SIGNATURE = 200;
const MAX_SUMMARY = 200;
const MAX_DOC_LINES = 60;
/**
 * How much of one source line the extraction reads. A minified bundle holds thousands of
 * declarations on one line of hundreds of kilobytes: reading the whole line for each made the cost
 * declarations × line length (a 209 KB line of 20,000 `var`s took V8 past 4 GB). Ordinary lines are
 * far shorter, so what they give is unchanged.
 */
export const MAX_LINE_READ = 1000;

/**
 * The lines as the extraction reads them: each cut to MAX_LINE_READ characters, in one pass over
 * the file. `sourceSignature` is given the declaration's own part of a longer line (lineFrom).
 */
export function readableLines(lines: readonly string[]): string[] {
  return lines.map((l) => (l.length > MAX_LINE_READ ? l.slice(0, MAX_LINE_READ) : l));
}

/**
 * The part of a line a declaration's signature is read from: the whole line when it is of ordinary
 * length, else the declaration's own text on it — from `start` (string indexes), reaching back over
 * what leads it on the line (`var `, `export `, modifiers) up to the `;`, `{` or `}` that ends the
 * statement before, to `end` (the line's end when undefined), at most MAX_LINE_READ characters —
 * so that the declarations of a minified line each read their own text, not the line's beginning.
 */
export function lineFrom(line: string, start: number, end?: number): string {
  if (line.length <= MAX_LINE_READ) return line;
  let from = Math.min(start, line.length);
  const floor = Math.max(0, from - MAX_SIGNATURE);
  while (from > floor && !STATEMENT_ENDS.has(line[from - 1]!)) from--;
  return line.slice(from, Math.min(end ?? line.length, from + MAX_LINE_READ));
}

const STATEMENT_ENDS = new Set([';', '{', '}']);

/**
 * The doc comment of a declaration whose full range starts at `startLine` and whose name is on
 * `selectionLine` (both 0-based). Some servers (intelephense) start the range at the doc comment
 * itself, so the lines between the two are searched first, then the lines above.
 */
export function docComment(lines: readonly string[], startLine: number, selectionLine: number, rules: DocRules = {}): string | undefined {
  for (let l = Math.max(startLine, selectionLine - MAX_DOC_LINES); l < selectionLine; l++) {
    const t = (lines[l] ?? '').trim();
    if (t.startsWith('/*')) return isDocBlock(t, rules) ? blockFrom(lines, l) : undefined;
    if (isLineComment(t)) return lineCommentsFrom(lines, l, 1);
  }
  let l = startLine - 1;
  // Decorators and attributes sit between a doc comment and the declaration.
  while (l >= 0 && /^(@|#\[)/.test((lines[l] ?? '').trim())) l--;
  if (l < 0) return trailingDoc(lines, selectionLine, rules);
  const t = (lines[l] ?? '').trim();
  if (t.endsWith('*/')) {
    let top = l;
    while (top > 0 && top > l - MAX_DOC_LINES && !(lines[top] ?? '').includes('/*')) top--;
    const opening = (lines[top] ?? '').trim();
    return opening.startsWith('/*') && isDocBlock(opening, rules) ? cleanBlock(lines.slice(top, l + 1)) : undefined;
  }
  if (isLineComment(t) && !continuesTrailingComment(lines, l)) return lineCommentsFrom(lines, l, -1);
  return trailingDoc(lines, selectionLine, rules);
}

/** How a language's comments attach to declarations, past the comment right above (the profile's CommentRules). */
export interface DocRules {
  /** A block comment documents only when it opens so (`/**`: Javadoc); `/* (non-Javadoc) *\/` is a note. */
  blockDoc?: string;
  /** A declaration's own one-line trailing comment documents it when nothing above does (a Go struct field). */
  trailing?: boolean;
  /** The declaration's last line (0-based): a trailing comment counts only on a one-line declaration. */
  endLine?: number;
}

function isDocBlock(opening: string, rules: DocRules): boolean {
  return rules.blockDoc === undefined || (opening.startsWith(rules.blockDoc) && !opening.startsWith(`${rules.blockDoc}*`));
}

/**
 * Where a line's trailing `//` comment starts after code, outside string, rune and raw-string
 * literals (a struct tag's `url:"http://x"` holds no comment); -1 when the line has none.
 */
function trailingCommentColumn(line: string): number {
  let quote = '';
  let code = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === '\\' && quote !== '`') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'" || c === '`') {
      quote = c;
      code = true;
    } else if (c === '/' && line[i + 1] === '/') return code ? i : -1;
    else if (c !== ' ' && c !== '\t') code = true;
  }
  return -1;
}

/**
 * Whether the comment block ending at `last` continues the trailing comment of the code line above
 * it (gofmt aligns the continuation under it): it belongs to that line's declaration, not the next one.
 */
function continuesTrailingComment(lines: readonly string[], last: number): boolean {
  let top = last;
  while (top > 0 && isLineComment((lines[top - 1] ?? '').trim())) top--;
  const above = lines[top - 1];
  if (above === undefined) return false;
  const column = trailingCommentColumn(above);
  const line = lines[top] ?? '';
  return column >= 0 && line.length - line.trimStart().length === column && line.slice(0, column).trim() === '';
}

/** The declaration's own trailing comment, where the language documents a one-line declaration so. */
function trailingDoc(lines: readonly string[], selectionLine: number, rules: DocRules): string | undefined {
  if (!rules.trailing || (rules.endLine !== undefined && rules.endLine !== selectionLine)) return undefined;
  const line = lines[selectionLine] ?? '';
  const column = trailingCommentColumn(line);
  return column < 0 ? undefined : nonEmpty(line.slice(column).replace(/^\/\/\s?/, ''));
}

function isLineComment(t: string): boolean {
  return t.startsWith('//') || (t.startsWith('#') && !t.startsWith('#[') && !t.startsWith('#!'));
}

function blockFrom(lines: readonly string[], top: number): string | undefined {
  let end = top;
  while (end < lines.length && end < top + MAX_DOC_LINES && !(lines[end] ?? '').includes('*/')) end++;
  return cleanBlock(lines.slice(top, end + 1));
}

function lineCommentsFrom(lines: readonly string[], from: number, step: 1 | -1): string | undefined {
  const out: string[] = [];
  for (let l = from; l >= 0 && l < lines.length && out.length < MAX_DOC_LINES; l += step) {
    const t = (lines[l] ?? '').trim();
    if (!isLineComment(t)) break;
    out.push(t.replace(/^(\/\/\/?|#)\s?/, ''));
  }
  if (step === -1) out.reverse();
  return nonEmpty(out.join('\n'));
}

function cleanBlock(block: string[]): string | undefined {
  const text = block
    .join('\n')
    .replace(/^\s*\/\*+/, '')
    .replace(/\*+\/\s*$/, '')
    .split('\n')
    .map((l) => l.replace(/^\s*\*(?!\/)\s?/, '').trimEnd())
    .join('\n');
  return nonEmpty(text);
}

function nonEmpty(s: string): string | undefined {
  const t = s.trim();
  return t === '' ? undefined : t;
}

/** First sentence of a doc (tag lines like `@param` dropped), whitespace collapsed, capped. */
export function firstSentence(doc: string): string {
  const para = doc
    .split(/\n\s*\n/)[0]!
    .split('\n')
    .filter((l) => !/^\s*@\w+/.test(l))
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
  const m = /^(.+?[.!?])(\s|$)/.exec(para);
  return cap(m ? m[1]! : para, MAX_SUMMARY);
}

/** Whether a documentSymbol `detail` reads as a signature of `name` (gopls, intelephense do this). */
export function isSignatureDetail(detail: string | undefined, name: string): detail is string {
  return !!detail && (detail.includes(`${name}(`) || detail.includes(`${name}<`));
}

/**
 * The declaration's source as a one-line signature: from the name's line, following lines
 * appended while parentheses are open (multi-line parameter lists), body opener dropped.
 */
export function sourceSignature(lines: readonly string[], selectionLine: number, language: string, first?: string): string {
  let sig = (first ?? lines[selectionLine] ?? '').trim();
  let depth = balance(sig);
  for (let l = selectionLine + 1; depth > 0 && l < lines.length && l < selectionLine + 15; l++) {
    const t = (lines[l] ?? '').trim();
    sig += (sig.endsWith('(') || t.startsWith(')') ? '' : ' ') + t;
    depth += balance(t);
  }
  sig = dropBodyOpener(sig.replace(/\s+/g, ' '));
  if (language === 'python') sig = sig.replace(/:\s*$/, '');
  return cap(sig, MAX_SIGNATURE);
}

/**
 * `s` (whitespace runs already one space) without a trailing `{` and the spaces around it: what
 * `s.replace(/\s*\{\s*$/, '')` gives, without trying the pattern at every index of a long line.
 */
function dropBodyOpener(s: string): string {
  let e = s.length;
  if (s.charCodeAt(e - 1) === 32) e--;
  if (s.charCodeAt(e - 1) !== 123) return s;
  e--;
  if (s.charCodeAt(e - 1) === 32) e--;
  return s.slice(0, e);
}

/** Open minus closed parentheses of `s`: 0 when its parameter lists close on it. */
export function balance(s: string): number {
  let d = 0;
  for (const c of s) {
    if (c === '(') d++;
    else if (c === ')') d--;
  }
  return d;
}

/** A signature as long as the catalog keeps one (longer ones end in `…`). */
export function capSignature(s: string): string {
  return cap(s, MAX_SIGNATURE);
}

function cap(s: string, max: number): string {
  return s.length <= max ? s : s.slice(0, max - 1) + '…';
}
