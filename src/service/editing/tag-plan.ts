/**
 * What tag_elements writes, worked out without touching the disk: which cataloged declarations get
 * a tag, the tag text, and the file's text afterwards. A tag is a one-line comment above the
 * declaration (above its decorators, attributes and doc comment, so none of them is separated
 * from what it annotates) naming the element's type, file, name and line, in the tag form
 * tag_elements documents (`@Fn` / `@Cl` / `@Cp`): `// @Fn/src/util/strings.ts#capitalize:12` (`#` comments in Python).
 * A language may write its tags with another opening (the profile's `comments.tag`): in Go a
 * directive, `//lspgate:tag @Fn/...`, which go doc leaves out of documentation.
 * The line is the declaration's name line once the tags above it are in. Where the leading block
 * starts is read from the file's parse tree by the caller. Pure: text in, text out.
 */
import { profileOf } from '../../adapters/languages.js';
import type { CatalogSymbol, SymbolRef } from '../../core/catalog.js';

/** The element types tag_elements names (its `element_types` input) and their tag codes. */
export const TAG_CODES = { function: 'Fn', method: 'Mt', class: 'Cl', component: 'Cp', hook: 'Hk', interface: 'If', type: 'Ty' } as const;
export type ElementType = keyof typeof TAG_CODES;

const TAG_LINE = /^\s*(?:\/\/lspgate:tag\s+|(?:\/\/|#)\s*)@(?:Fn|Mt|Cl|Cp|Hk|If|Ty)\/\S+#\S+:\d+\s*$/;

export interface PlannedTag extends Pick<SymbolRef, 'symbol_id' | 'name' | 'qualified_name'> {
  element_type: ElementType;
  /** 1-based line of the declaration's name before tagging. */
  line: number;
  tag: string;
  /** tag: new tag; retag: an existing tag replaced (force / update_lineno); skip: already tagged. */
  action: 'tag' | 'retag' | 'skip';
}

export interface TagOptions {
  force: boolean;
  updateLineno: boolean;
}

/** The element type of a declaration, or undefined when it is not tagged (variables, fields, locals...). */
export function elementType(s: CatalogSymbol, file: string): ElementType | undefined {
  switch (s.kind) {
    case 'function':
      return profileOf(file, s.language)?.declarations.elementType?.(s, file) ?? 'function';
    case 'method':
      return 'method';
    case 'class':
    case 'struct':
    case 'trait':
    case 'enum':
      return 'class';
    case 'interface':
      return 'interface';
    case 'type':
      return 'type';
    default:
      return undefined;
  }
}

/** Private by the language's own rule: `_name` / `#name`, the profile's rule (Go's lower-case names), private/protected modifiers. */
export function isPrivate(s: CatalogSymbol): boolean {
  if (s.name.startsWith('_') || s.name.startsWith('#')) return !/^__\w+__$/.test(s.name);
  const own = profileOf(s.file, s.language)?.declarations.isPrivate;
  if (own) return own(s);
  return /^\s*(?:(?:public|static|readonly|abstract|final|async|override)\s+)*(private|protected)\b/.test(s.signature);
}

/** What a tag line starts with in a declaration's language; `// ` for a language with no profile. */
function tagOpening(s: CatalogSymbol): string {
  const comments = profileOf(s.file, s.language)?.comments;
  return comments?.tag ?? `${comments?.line ?? '//'} `;
}

/** An element to tag, and the 1-based first line of its leading block (decorators, attributes, doc comments) when known. */
export interface TagElement {
  sym: CatalogSymbol;
  type: ElementType;
  leading?: number;
}

export interface FilePlan {
  tags: PlannedTag[];
  /** Text after tagging (equal to the input when nothing changes). */
  after: string;
}

/**
 * Tags for `elements` of one file (`text` is what their lines were cataloged from). An element
 * whose leading block already holds a tag is skipped, unless `force` (always rewritten) or
 * `updateLineno` (rewritten when its text is out of date).
 */
export function planFile(file: string, text: string, elements: TagElement[], opts: TagOptions): FilePlan {
  const lines = text.split('\n');
  const comment = elements[0] ? tagOpening(elements[0].sym) : '// ';
  const sorted = [...elements].sort((a, b) => a.sym.line - b.sym.line);
  const cr = text.includes('\r\n') ? '\r' : '';
  const inserts = new Map<number, string>();
  const insertedAt: number[] = [];
  const replaces = new Map<number, string>();
  const tags: PlannedTag[] = [];
  for (const { sym, type, leading } of sorted) {
    const start = Math.min(leading ?? sym.line, sym.line) - 1;
    let existing: number | undefined;
    for (let l = start; l < sym.line - 1; l++) if (TAG_LINE.test(lines[l] ?? '')) existing = l;
    // the declaration's line after tagging: each new tag line above it pushes it down by one
    const newLine = sym.selection_line + insertedAt.filter((k) => k <= start).length + (existing === undefined ? 1 : 0);
    const indent = /^\s*/.exec(lines[sym.line - 1] ?? '')?.[0] ?? '';
    const tag = `${indent}${comment}@${TAG_CODES[type]}/${file}#${sym.qualified_name}:${newLine}`;
    let action: PlannedTag['action'] = 'tag';
    if (existing !== undefined) {
      const stale = lines[existing]!.replace(/\r$/, '') !== tag;
      action = opts.force || (opts.updateLineno && stale) ? 'retag' : 'skip';
      if (action === 'retag') replaces.set(existing, tag + cr);
    } else {
      insertedAt.push(start);
      inserts.set(start, inserts.has(start) ? `${inserts.get(start)}\n${tag}${cr}` : tag + cr);
    }
    tags.push({
      symbol_id: sym.symbol_id,
      name: sym.name,
      qualified_name: sym.qualified_name,
      element_type: type,
      line: sym.selection_line,
      tag: tag.trim(),
      action,
    });
  }
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (inserts.has(i)) out.push(inserts.get(i)!);
    out.push(replaces.get(i) ?? line);
  });
  return { tags, after: out.join('\n') };
}
