/**
 * The function a call site's arguments belong to, found in the text: signature help answers for a
 * position inside the parentheses, and its text is judged by where the called function is declared
 * (server-texts.ts), so the declaration is asked at the callee's name.
 */

const IDENT = /[\p{L}\p{N}_$]/u;

/**
 * Offsets of the parentheses still open at `offset`, innermost last. Strings (', ", `, with escapes)
 * and comments (the language's line comment, `/* *\/`) are skipped: a "(" in a string argument
 * opens nothing.
 */
function openParens(text: string, offset: number, lineComment: string): number[] {
  const open: number[] = [];
  for (let i = 0; i < offset; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'" || c === '`') {
      for (i++; i < offset && text[i] !== c; i++) if (text[i] === '\\') i++;
    } else if (text.startsWith(lineComment, i)) {
      while (i < offset && text[i] !== '\n') i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? offset : end + 1;
    } else if (c === '(') open.push(i);
    else if (c === ')') open.pop();
  }
  return open;
}

/**
 * The offset of the last character of the name called by the innermost call open at `offset`
 * (`f` in `f(a, |`, `m` in `o.m<T>(|`); undefined when there is none (no open parenthesis, or a
 * call of an expression such as `f()(|`).
 */
export function calleeOffset(text: string, offset: number, lineComment = '//'): number | undefined {
  const paren = openParens(text, offset, lineComment).pop();
  if (paren === undefined) return undefined;
  let i = paren - 1;
  while (i >= 0 && /\s/.test(text[i]!)) i--;
  if (text[i] === '>') {
    // type arguments: f<T>(…)
    let depth = 0;
    for (; i >= 0; i--) {
      if (text[i] === '>') depth++;
      else if (text[i] === '<' && --depth === 0) break;
    }
    i--;
    while (i >= 0 && /\s/.test(text[i]!)) i--;
  }
  return i >= 0 && IDENT.test(text[i]!) ? i : undefined;
}
