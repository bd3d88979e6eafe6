/**
 * Rules of the ctags truth harness (truth-ctags.ts), read from the languages' parse trees: which declarations
 * ctags 5.9 does not tag, per language, each with a probe the harness runs ctags on before applying it; the
 * lines where ctags tags what is no declaration (C# generic constraints); the name ctags gives a Rust impl block.
 */
import fs from 'node:fs';
import path from 'node:path';

import { type SyntaxNode, withSyntaxTree } from '../src/syntax/syntax.js';

/** Where ctags put a tag (the fields the rules read). */
export interface TagAt {
  file: string;
  line: number;
}

/** A symbol the catalog lists (the fields the rules read). */
export type Symbol = { file: string; line: number; name: string; kind: string; parent?: string; selection_line: number; selection_column: number };

/**
 * Declarations ctags 5.9 does not tag, by a stated rule: applied only when ctags, run on `probe`,
 * tags none of its `names` (a ctags that tags them gets the symbols counted again).
 */
export interface UntaggedRule {
  what: string;
  why: string;
  probe: { file: string; text: string; names: string[] };
  /** Which symbols the rule leaves out, from the corpus, its counted ctags tags and the language's trees. */
  select(dir: string, tags: TagAt[], symbols: Symbol[]): Promise<(s: Symbol) => boolean>;
}

/** `file:line:column` (1-based) of the names of nodes of `types` in the files of `symbols`, read from their trees. */
async function namesOfNodes(
  dir: string,
  grammar: string,
  files: Iterable<string>,
  types: ReadonlySet<string>,
  keep: (n: SyntaxNode) => boolean = () => true,
): Promise<Set<string>> {
  const out = new Set<string>();
  for (const file of new Set(files)) {
    await withSyntaxTree(grammar, fs.readFileSync(path.join(dir, file), 'utf8'), (root) => {
      for (const n of root.descendantsOfType([...types])) {
        if (!n || !keep(n)) continue;
        const name = n.childForFieldName('name') ?? n.namedChildren.find((c) => c?.type === 'identifier');
        if (name) out.add(`${file}:${name.startPosition.row + 1}:${name.startPosition.column + 1}`);
      }
    });
  }
  return out;
}

/** Rows of the first node of `types` whose text opens with `prefix`, per file (0-based), read from the trees of `files`. */
async function firstNodeRows(dir: string, grammar: string, files: Iterable<string>, types: ReadonlySet<string>, prefix: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const file of new Set(files)) {
    await withSyntaxTree(grammar, fs.readFileSync(path.join(dir, file), 'utf8'), (root) => {
      const first = root.descendantsOfType([...types]).find((n) => n?.text.startsWith(prefix));
      if (first) out.set(file, first.startPosition.row);
    });
  }
  return out;
}

/** `s` without its balanced `<…>` groups (`Join<&[T]> for [V]` → `Join for [V]`); a `->` stays. */
function withoutAngleGroups(s: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '<') depth++;
    else if (ch === '>' && depth > 0 && s[i - 1] !== '-') depth--;
    else if (depth === 0) out += ch;
  }
  return out;
}

/** The name ctags 5.9 gives a Rust impl block lspgate names `impl Trait for Type` / `impl Type`: the type's last identifier outside generic arguments. */
export function implTypeName(name: string): string | undefined {
  if (!name.startsWith('impl ')) return undefined;
  const bare = withoutAngleGroups(name.slice(5));
  const forAt = bare.indexOf(' for ');
  const type = forAt >= 0 ? bare.slice(forAt + 5) : bare;
  // a lifetime (`&'a`) is no identifier, nor are `mut`, `const` and `dyn` before the type
  const ids = type
    .replace(/'\w+/g, '')
    .match(/[A-Za-z_]\w*/g)
    ?.filter((w) => w !== 'mut' && w !== 'const' && w !== 'dyn');
  return ids?.[ids.length - 1];
}

/**
 * C#: the lines where a generic constraint (`where T : class`) starts, which ctags 5.9 tags as a property or class named
 * by the constraint's type, and the lines of the body of a declaration with such a constraint, whose statements it then
 * reads as members (`var isUnityObject = …` as a field, a call as a method): `file:line`, from the parsed nodes only.
 */
export async function csharpConstraintLines(dir: string, tags: TagAt[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const file of new Set(tags.map((t) => t.file))) {
    await withSyntaxTree('c-sharp', fs.readFileSync(path.join(dir, file), 'utf8'), (root) => {
      for (const n of root.descendantsOfType('type_parameter_constraints_clause')) {
        if (!n || n.hasError) continue;
        out.add(`${file}:${n.startPosition.row + 1}`);
        const body = n.parent?.children.find((c) => c?.type === 'block');
        if (body && n.parent?.type !== 'class_declaration')
          for (let row = body.startPosition.row + 1; row < body.endPosition.row; row++) out.add(`${file}:${row + 1}`);
      }
    });
  }
  return out;
}

export const RUST_UNTAGGED: UntaggedRule[] = [
  {
    what: '`const` items',
    why: "ctags 5.9's Rust parser has no constant kind and tags no `const` (a `static` is its variable)",
    probe: { file: 'probe.rs', text: 'const A: u8 = 1;\npub const B: u8 = 2;\nimpl S { const C: u8 = 3; }\n', names: ['A', 'B', 'C'] },
    async select(dir, _tags, symbols) {
      const consts = await namesOfNodes(
        dir,
        'rust',
        symbols.filter((s) => s.kind === 'constant').map((s) => s.file),
        new Set(['const_item']),
      );
      return (s) => s.kind === 'constant' && consts.has(`${s.file}:${s.selection_line}:${s.selection_column}`);
    },
  },
  {
    what: 'fields of a struct-like enum variant',
    why: 'ctags 5.9 tags the variant (`V { x: u8 }`), not its fields',
    probe: { file: 'probe.rs', text: 'enum E {\n    V {\n        inner_x: u8,\n    },\n}\n', names: ['inner_x'] },
    select: (_dir, _tags, _symbols) => Promise.resolve((s) => s.kind === 'field' && !!s.parent?.endsWith('#enum_member')),
  },
  {
    what: 'declarations after a type whose generic arguments open with `<<` (`WithHeader<<T as Pointee>::Metadata>`)',
    why: "ctags 5.9's Rust parser reads `<<` as a shift and tags nothing more in the file (applied to a file only when ctags has no tag past that line)",
    probe: {
      file: 'probe.rs',
      text: 'pub struct P<T> {\n    a: W<<T as Tr>::M>,\n}\n\nfn after_shift() {}\n',
      names: ['after_shift'],
    },
    async select(dir, tags, symbols) {
      const rows = await firstNodeRows(
        dir,
        'rust',
        symbols.map((s) => s.file),
        new Set(['type_arguments']),
        '<<',
      );
      const lastTag = new Map<string, number>();
      for (const t of tags) lastTag.set(t.file, Math.max(lastTag.get(t.file) ?? 0, t.line));
      // the cut is the line after the `<<` (its own declaration ctags may still tag), and holds only if ctags tags nothing past it
      return (s) => {
        const row = rows.get(s.file);
        return row !== undefined && (lastTag.get(s.file) ?? 0) <= row + 1 && s.line > row + 1;
      };
    },
  },
];

/** Declarations of tree-sitter-c-sharp that may carry generic constraints. */
const CSHARP_DECLARATIONS = [
  'method_declaration',
  'class_declaration',
  'struct_declaration',
  'interface_declaration',
  'record_declaration',
  'delegate_declaration',
];

export const CSHARP_UNTAGGED: UntaggedRule[] = [
  {
    what: 'declarations with a generic constraint (`void M<T>(T x) where T : class`)',
    why: "ctags 5.9 tags the constraint's type in the declaration's place (its false tag, dropped), not the declaration",
    probe: {
      file: 'Probe.cs',
      text: 'class P {\n    public static void Probe_m<T>(T x)\n        where T : System.Exception\n    { }\n}\n',
      names: ['Probe_m'],
    },
    async select(dir, _tags, symbols) {
      const names = await namesOfNodes(
        dir,
        'c-sharp',
        symbols.map((s) => s.file),
        new Set(CSHARP_DECLARATIONS),
        (n) => n.children.some((c) => c?.type === 'type_parameter_constraints_clause'),
      );
      return (s) => names.has(`${s.file}:${s.selection_line}:${s.selection_column}`);
    },
  },
  {
    what: 'fields typed by a member of a generic type (`UniTask<bool>.Awaiter awaiter;`)',
    why: 'ctags 5.9 tags no such field',
    probe: { file: 'Probe.cs', text: 'class P {\n    UniTask<bool>.Awaiter probe_f;\n    int plain;\n}\n', names: ['probe_f'] },
    async select(dir, _tags, symbols) {
      const names = await namesOfNodes(
        dir,
        'c-sharp',
        symbols.filter((s) => s.kind === 'field').map((s) => s.file),
        new Set(['variable_declarator']),
        (n) => {
          const type = n.parent?.type === 'variable_declaration' ? n.parent.childForFieldName('type') : undefined;
          return type?.type === 'qualified_name' && type.namedChildren.some((c) => c?.type === 'generic_name');
        },
      );
      return (s) => s.kind === 'field' && names.has(`${s.file}:${s.selection_line}:${s.selection_column}`);
    },
  },
  {
    what: 'indexers (`public T this[int i]`)',
    why: 'ctags 5.9 tags an indexer only when it implements an interface explicitly (`IDictionary.this`)',
    probe: { file: 'Probe.cs', text: 'class P {\n    public int this[int i] { get { return i; } }\n}\n', names: ['this'] },
    select: () => Promise.resolve((s) => s.kind === 'property' && s.name === 'this'),
  },
  {
    what: 'methods with a parameter of a nullable named type (`void ResetCore(TimeSpan? interval)`; `int?` is tagged)',
    why: 'ctags 5.9 tags no method whose parameter is of a type `Name?`',
    probe: {
      file: 'Probe.cs',
      text: 'abstract class A {\n    protected abstract void Probe_r(System.TimeSpan? x);\n    void Probe_s(TimeSpan? x) { }\n}\n',
      names: ['Probe_r', 'Probe_s'],
    },
    async select(dir, _tags, symbols) {
      const names = await namesOfNodes(
        dir,
        'c-sharp',
        symbols.filter((s) => s.kind === 'method').map((s) => s.file),
        new Set(['method_declaration']),
        (n) =>
          (n.childForFieldName('parameters')?.namedChildren ?? []).some((p) => {
            const type = p?.childForFieldName('type');
            return type?.type === 'nullable_type' && type.namedChild(0)?.type !== 'predefined_type';
          }),
      );
      return (s) => s.kind === 'method' && names.has(`${s.file}:${s.selection_line}:${s.selection_column}`);
    },
  },
];
