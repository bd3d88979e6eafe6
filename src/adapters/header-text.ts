/**
 * Base names read from the text of a declaration header, for the languages whose headers name their
 * bases after `extends` / `implements` (TypeScript, JavaScript, PHP). The server resolves each name;
 * this only says which names to ask about.
 */

/** Names following `extends` / `implements` in a header, outside generic arguments; a dotted or namespaced name by its last part. */
export function heritageNames(header: string): string[] {
  const names = new Set<string>();
  const head = withoutBrackets(header.split('{')[0] ?? '', '<', '>');
  const at = head.search(/\b(extends|implements)\b/);
  if (at < 0) return [];
  for (const m of head.slice(at).matchAll(/[A-Za-z_$\\][\w$.\\]*/g)) {
    const name = m[0].split(/[.\\]/).pop()!;
    if (name && name !== 'extends' && name !== 'implements') names.add(name);
  }
  return [...names];
}

/** Drops bracketed parts, innermost first: generic arguments `<...>` (or Python subscripts `[...]`). */
export function withoutBrackets(text: string, open: string, close: string): string {
  const inner = new RegExp(`\\${open}[^\\${open}\\${close}]*\\${close}`, 'g');
  let prev;
  do {
    prev = text;
    text = text.replace(inner, ' ');
  } while (text !== prev);
  return text;
}
