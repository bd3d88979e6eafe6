/**
 * Bracket-aware splitting of declaration text, shared by the Go, PHP and Python signature readers.
 */

/** Splits at top-level commas (not inside (), [], {}, or quotes; `<>` too unless `angles` is false). */
export function splitTopLevel(s: string, sep = ',', angles = true): string[] {
  const opens = angles ? '([{<' : '([{';
  const closes = angles ? ')]}>' : ')]}';
  const out: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let cur = '';
  for (const ch of s) {
    if (quote) {
      cur += ch;
      if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === '`' || ch === "'") quote = ch;
    else if (opens.includes(ch)) depth++;
    else if (closes.includes(ch)) depth--;
    if (ch === sep && depth === 0) {
      out.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** Index of the bracket closing the one at `open` (same kind), or -1. */
export function matchingBracket(s: string, open: number): number {
  const o = s[open]!;
  const c = o === '(' ? ')' : o === '[' ? ']' : o === '{' ? '}' : '>';
  let depth = 0;
  for (let i = open; i < s.length; i++) {
    if (s[i] === o) depth++;
    else if (s[i] === c && --depth === 0) return i;
  }
  return -1;
}
