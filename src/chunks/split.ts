/**
 * Where a long function may be cut: statement boundaries found without a parser. Brace languages
 * count brackets (outside strings and comments) and a boundary is a line that starts back at the
 * body's depth after a line that does not continue an expression; Python uses indentation, and
 * never cuts before the `else`/`except`/... of a compound statement. Each piece keeps whole
 * statements, so a piece's text is real code and its citation is exact.
 */
export const SPLIT_ABOVE_LINES = 60;
const MIN_PIECE = 12;
const MAX_PIECE = 50;

/** Bracket depth at the start of each line (0-based array over `lines`), strings and comments skipped. */
export function bracketDepths(lines: readonly string[], python: boolean): number[] {
  const depths: number[] = [];
  let depth = 0;
  let block = false;
  for (const line of lines) {
    depths.push(depth);
    let quote = '';
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (block) {
        if (c === '*' && line[i + 1] === '/') {
          block = false;
          i++;
        }
      } else if (quote) {
        if (c === '\\') i++;
        else if (c === quote) quote = '';
      } else if (c === '"' || c === "'" || c === '`') quote = c;
      else if (python ? c === '#' : c === '/' && line[i + 1] === '/') break;
      else if (!python && c === '/' && line[i + 1] === '*') {
        block = true;
        i++;
      }
      else if (c === '{' || c === '(' || c === '[') depth++;
      else if (c === '}' || c === ')' || c === ']') depth = Math.max(0, depth - 1);
    }
  }
  return depths;
}

const CONTINUES = /([+\-*/%=&|^?:,.(]|=>)\s*$/;
const PY_CLAUSE = /^\s*(elif|else|except|finally|case)\b/;

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** 1-based line numbers inside (start, end] where a new piece may begin. */
export function statementBoundaries(fileLines: readonly string[], start: number, end: number, python: boolean): number[] {
  const lines = fileLines.slice(start - 1, end);
  const depths = bracketDepths(lines, python);
  const out: number[] = [];
  if (python) {
    const bodyIdx = lines.findIndex((l, i) => i > 0 && l.trim() !== '' && depths[i] === 0);
    if (bodyIdx < 0) return out;
    const bodyIndent = indentOf(lines[bodyIdx]!);
    for (let i = bodyIdx + 1; i < lines.length; i++) {
      const l = lines[i]!;
      if (l.trim() !== '' && depths[i] === 0 && indentOf(l) === bodyIndent && !PY_CLAUSE.test(l)) out.push(start + i);
    }
    return out;
  }
  const bodyDepth = (depths[0] ?? 0) + 1;
  for (let i = 1; i < lines.length; i++) {
    const prev = lines[i - 1]!.trim();
    const line = lines[i]!.trim();
    // A closing bracket ends the statement above it: cutting before it would orphan the bracket.
    if (depths[i] === bodyDepth && line !== '' && !/^[}\])]/.test(line) && !CONTINUES.test(prev)) out.push(start + i);
  }
  return out;
}

/** The [start, end] pieces of a long range, cut at boundaries; one piece when it need not or cannot be cut. */
export function splitRange(start: number, end: number, boundaries: readonly number[]): [number, number][] {
  if (end - start + 1 <= SPLIT_ABOVE_LINES) return [[start, end]];
  const pieces: [number, number][] = [];
  let pieceStart = start;
  let last = -1;
  for (const b of boundaries) {
    if (b - pieceStart > MAX_PIECE && last - pieceStart >= MIN_PIECE) {
      pieces.push([pieceStart, last - 1]);
      pieceStart = last;
    }
    last = b;
  }
  if (end - pieceStart + 1 > MAX_PIECE && last - pieceStart >= MIN_PIECE && end - last + 1 >= MIN_PIECE / 2) {
    pieces.push([pieceStart, last - 1]);
    pieceStart = last;
  }
  pieces.push([pieceStart, end]);
  return pieces;
}
