/**
 * Small depth-aware scanners over TypeScript declaration text (signatures from tsserver hovers
 * and declaration headers from source). Not a parser: enough to split parameter lists, find the
 * return type and cut a header at its body, with `<>`, `()`, `[]`, `{}` and strings respected.
 */

const OPEN = '([{<';
const CLOSE = ')]}>';

/**
 * Walks `text` calling `visit(i, depth)` for each character outside strings; `=>` does not close a
 * `<`. Stops when `visit` returns true. Returns the index it stopped at, or -1.
 */
export function scanTopLevel(text: string, visit: (i: number, depth: number) => boolean): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') {
      quote = ch;
      continue;
    }
    if (visit(i, depth)) return i;
    if (OPEN.includes(ch)) depth++;
    else if (CLOSE.includes(ch) && !(ch === '>' && text[i - 1] === '=')) depth = Math.max(0, depth - 1);
  }
  return -1;
}

/** Splits on `sep` at depth 0. */
export function splitTopLevel(text: string, sep = ','): string[] {
  const parts: string[] = [];
  let start = 0;
  scanTopLevel(text, (i, depth) => {
    if (depth === 0 && text[i] === sep) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
    return false;
  });
  parts.push(text.slice(start));
  return parts.map((p) => p.trim()).filter((p) => p.length > 0);
}

/** Index of the first `ch` at depth 0 at or after `from`, or -1. */
export function indexOfTopLevel(text: string, ch: string, from = 0): number {
  return scanTopLevel(text, (i, depth) => i >= from && depth === 0 && text[i] === ch);
}

/** Index of the bracket closing the one opened at `open`, or -1. */
export function matchingClose(text: string, open: number): number {
  let found = -1;
  scanTopLevel(text.slice(open), (i, depth) => {
    const ch = text[open + i]!;
    if (i > 0 && depth === 1 && CLOSE.includes(ch) && !(ch === '>' && text[open + i - 1] === '=')) {
      found = open + i;
      return true;
    }
    return false;
  });
  return found;
}

/** Removes `/* … *\/` and `// …` comments (outside strings) from declaration text. */
export function stripComments(text: string): string {
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      out += ' ';
      continue;
    }
    if (ch === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end - 1;
      continue;
    }
    out += ch;
  }
  return out;
}
