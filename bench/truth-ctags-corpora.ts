/**
 * The corpora of the tagger comparison (bench/truth-ctags.ts): where each language's real code comes
 * from, which ctags kinds count, and the rules each language's comparison needs (ctags's false tags,
 * its second reading of the C++ branches it skipped), with the ctags runner they share.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { withSyntaxTree } from '../src/syntax/syntax.js';
import { DEBIAN, debianTree, isShellScript } from './truth-ctags-debian.js';
import { CSHARP_UNTAGGED, csharpConstraintLines, implTypeName, RUST_UNTAGGED, type UntaggedRule } from './truth-ctags-rules.js';

/** Files per corpus at most: enough for thousands of tags, small enough for 2 cores. */
const MAX_FILES = Number(process.env.TRUTH_CTAGS_MAX_FILES ?? 400);

export interface Corpus {
  lang: string;
  /** ctags's --languages name. */
  ctags: string;
  /** Where the files come from (the table says it). */
  source: string;
  /** Copies the corpus into `dir`; false when this machine does not have it. */
  prepare(dir: string): boolean;
  /** ctags options beyond the shared ones (a kind ctags leaves off by default that lspgate indexes). */
  ctagsArgs?: string[];
  /** ctags kinds (long names) that correspond to what lspgate indexes. */
  kinds: string[];
  /** ctags kinds left out, and why. */
  excluded: Record<string, string>;
  /** Tags of a counted kind left out, what they are and why (listed with the excluded kinds). */
  excludedTags?: { what: string; why: string; test: (t: Tag) => boolean };
  /** lspgate kinds ctags has no kind for (left out of precision), and why. */
  notTagged?: Record<string, string>;
  /** lspgate symbols of a counted kind ctags does not tag (left out of precision), each rule checked on a probe and listed with its count. */
  untagged?: UntaggedRule[];
  /**
   * A tag is found by a symbol whose name holds its name on the same line (CSS: ctags tags each
   * selector of a list, lspgate the list as one rule).
   */
  byContainment?: boolean;
  /** The name a tag is matched by (default: as ctags writes it). */
  tagName?: (t: Tag) => string;
  /** The name a symbol is matched by, besides its own and its last segment (Rust: `impl Trait for Type` → `Type`, ctags's implementation tag). */
  symbolName?: (name: string) => string | undefined;
  /** ctags's own false tags, dropped (a name that is no declaration). */
  falseTag?: (t: Tag) => boolean;
  /** `file:line` of the lines where ctags reads a declaration that is none, found in the trees of the files it tagged (C#'s `where T : class`). */
  falseLines?: (dir: string, tags: Tag[]) => Promise<Set<string>>;
  /**
   * ctags's false tags that only the corpus's tags show (a call of a macro the corpus defines), each
   * rule with what it drops and why: printed with the count it dropped.
   */
  falseTagsOf?: (all: Tag[], dir: string) => Promise<Array<{ what: string; why: string; test: (t: Tag) => boolean }>>;
  /**
   * A second reading by ctags of code its first reading skipped, with why: its tags count as ctags's
   * for precision (a symbol there is tagged when this reading tags it), not for recall.
   */
  secondReading?: (dir: string, all: Tag[]) => Promise<{ why: string; tags: Tag[] }>;
  /** Node types of the language's tree that hold text, not code (a tag inside one is ctags's false tag), and the grammar to read them with. */
  textNodes?: { grammar: string; types: string[] };
}

function firstExisting(paths: string[]): string | undefined {
  return paths.find((p) => fs.existsSync(p));
}

function globDirs(parent: string, re: RegExp): string[] {
  try {
    return fs
      .readdirSync(parent)
      .filter((n) => re.test(n))
      .sort()
      .map((n) => path.join(parent, n));
  } catch {
    return [];
  }
}

/** Copies files under `from` matching `keep` (relative paths), at most MAX_FILES, into `dir`; renames with `rename`. */
function copyTree(from: string, dir: string, keep: (rel: string) => boolean, rename: (rel: string) => string = (r) => r): boolean {
  let n = 0;
  const walk = (sub: string) => {
    for (const ent of fs.readdirSync(path.join(from, sub), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (n >= MAX_FILES) return;
      const rel = sub ? `${sub}/${ent.name}` : ent.name;
      if (ent.isDirectory()) walk(rel);
      else if (ent.isFile() && keep(rel)) {
        const to = path.join(dir, rename(rel));
        fs.mkdirSync(path.dirname(to), { recursive: true });
        fs.copyFileSync(path.join(from, rel), to);
        n++;
      }
    }
  };
  walk('');
  return n > 0;
}

/**
 * ctags 5.9's Rust kinds lspgate indexes (`ctags --list-kinds-full=Rust`): a trait is its `interface`; it has no
 * constant kind (a `static` is its `variable`, a `const` is not tagged: RUST_UNTAGGED).
 */
const RUST_KINDS = ['module', 'struct', 'enum', 'enumerator', 'function', 'method', 'interface', 'typedef', 'field', 'variable'];

/** The Ruby rules of every Ruby corpus. */
const RUBY_RULES: Omit<Corpus, 'lang' | 'source' | 'prepare'> = {
  ctags: 'Ruby',
  kinds: ['class', 'module', 'method', 'singletonMethod', 'constant', 'accessor', 'alias'],
  excluded: { library: 'require targets' },
  excludedTags: {
    what: 'alias $NEW $old',
    why: 'aliases of global variables: lspgate indexes no global variables',
    test: (t) => t.kind === 'alias' && t.name.startsWith('$'),
  },
  // ctags tags attr_accessor's writer as `name=` beside `name`; lspgate lists the attribute once
  tagName: (t) => (t.kind === 'accessor' ? t.name.replace(/=$/, '') : t.name),
  // ctags 5.9 reads a constant compared or used as a hash key (`Hash === x`, `TYPE_CHAR => 1`, `RUBY_ENGINE == "jruby"`) as an assignment
  falseTag: (t) => t.kind === 'constant' && new RegExp(`^/\\^.*\\b${t.name.replace(/[^\w]/g, '')}\\s*(=>|==|=~)`).test(t.pattern),
  // and tags names inside strings and heredocs: mkmf's Makefile template, racc's parser source kept as text, `%w[alias and]`
  textNodes: { grammar: 'ruby', types: ['string', 'heredoc_body', 'string_array', 'symbol_array'] },
  // ctags 5.9 writes an alias of a predicate, bang or writer method without its `?` / `!` / `=` (`alias eql? ==` → `eql`)
  symbolName: (name) => (/[?!=]$/.test(name) ? name.slice(0, -1) : undefined),
};

/** The shell rules of every shell corpus. */
const SHELL_RULES: Omit<Corpus, 'lang' | 'source' | 'prepare'> = {
  ctags: 'Sh',
  kinds: ['function'],
  excluded: { alias: 'alias definitions', script: 'sourced file names', heredoc: 'here-document labels' },
  notTagged: { variable: 'top-level assignments (ctags tags none)' },
  // ctags 5.9 reads `COMPREPLY=()` after a function's brace as a function named `COMPREPLY=`, and a case arm that
  // matches the text `()` (`\(\))   : skip parens of shell function definition ;;`) as a header named by the line's last word
  falseTag: (t) => t.name.endsWith('=') || t.pattern.includes('\\\\(\\\\)'),
  // and tags an awk `function` inside a quoted awk program
  textNodes: { grammar: 'bash', types: ['raw_string', 'string', 'heredoc_body'] },
};

/** The C++ rules of every C++ corpus: ctags's kinds, its false tags and its second reading of skipped branches. */
const CPP_RULES: Omit<Corpus, 'lang' | 'source' | 'prepare'> = {
  ctags: 'C++',
  // lspgate lists a declaration without a body (clangd does): ctags's prototype kind, off by default, is turned on and counted
  ctagsArgs: ['--kinds-C++=+p'],
  kinds: ['class', 'struct', 'union', 'enum', 'enumerator', 'function', 'prototype', 'namespace', 'typedef', 'member'],
  excluded: {
    macro: 'preprocessor macros (not declarations of the language)',
    variable: 'namespace-scope variables',
    externvar: 'extern declarations',
    header: 'included files',
    local: 'locals of a body',
  },
  // clangd and lspgate name a specialization with its arguments (`_Digit<_Base, '0'>`, `A<T>::f`), ctags by the bare name
  symbolName: (name) => lastSegment(withoutTemplateArguments(name)),
  // ctags writes `operator ()`, clangd and lspgate `operator()`
  tagName: (t) => t.name.replace(/\s+/g, ''),
  falseTagsOf: async (all, dir) => {
    const macros = new Set(all.filter((t) => t.kind === 'macro').map((t) => t.name));
    const required = await requirementNames(dir, all);
    return [
      {
        what: 'names in a requires-expression',
        why: 'ctags reads a requirement (`requires { typename _Tp::difference_type; }`) as a member declaration: the name stands at that line inside the requirement braces of the tree',
        test: (t) => required.has(`${t.file}:${t.line}:${t.name}`),
      },
      {
        what: '_GLIBCXX* names',
        why: "libstdc++'s configuration macros (c++config.h, outside the corpus) that ctags reads as a name: `_GLIBCXX_NOEXCEPT_IF(…)` as a function",
        test: (t) => t.kind !== 'macro' && t.name.startsWith('_GLIBCXX'),
      },
      {
        what: 'names of macros the corpus defines',
        why: 'a call of a macro the corpus #defines (`__glibcxx_class_requires(_Tp, _Concept)` in a class body), which ctags reads as a prototype: the preprocessor replaces it',
        test: (t) => t.kind !== 'macro' && macros.has(t.name),
      },
    ];
  },
  secondReading: elseBranchesRead,
};

export const CORPORA: Corpus[] = [
  {
    lang: 'java',
    ctags: 'Java',
    source: 'OpenJDK 17 src.zip: java.base/java/util (+ concurrent)',
    prepare(dir) {
      const zip = firstExisting(['/usr/lib/jvm/java-17-openjdk-amd64/lib/src.zip', ...globDirs('/usr/lib/jvm', /./).map((d) => path.join(d, 'lib/src.zip'))]);
      if (!zip) return false;
      const tmp = `${dir}.unzip`;
      fs.mkdirSync(tmp, { recursive: true });
      execFileSync('unzip', ['-q', '-o', zip, 'java.base/java/util/*', '-d', tmp]);
      return copyTree(path.join(tmp, 'java.base/java/util'), dir, (r) => r.endsWith('.java') && (!r.includes('/') || r.startsWith('concurrent/')));
    },
    kinds: ['class', 'interface', 'enum', 'enumConstant', 'method', 'field', 'annotation'],
    excluded: { package: "the package clause (lspgate keeps it as each symbol's package)" },
  },
  {
    lang: 'cpp',
    source: 'libstdc++ headers: /usr/include/c++/N/bits/*.h',
    prepare(dir) {
      const inc = globDirs('/usr/include/c++', /^\d+$/).pop();
      return !!inc && copyTree(path.join(inc, 'bits'), dir, (r) => r.endsWith('.h') && !r.includes('/'));
    },
    ...CPP_RULES,
  },
  {
    // a second C++ corpus, so that the C++ rules are not fitted to bits/: the same g++ install's other headers, another style
    // (extension headers, policy-based data structures, TS headers), the standard headers having no extension (copied with `.h`)
    lang: 'cpp-other',
    source: 'libstdc++ headers outside bits/: /usr/include/c++/N/*, ext/, experimental/, debug/, tr1/ (first 400 files)',
    prepare(dir) {
      const inc = globDirs('/usr/include/c++', /^\d+$/).pop();
      const dirs = new Set(['backward', 'debug', 'decimal', 'experimental', 'ext', 'tr1', 'tr2']);
      const keep = (r: string) => (r.includes('/') ? dirs.has(r.split('/')[0]!) : true);
      return !!inc && copyTree(inc, dir, keep, (r) => (path.extname(r) ? r : `${r}.h`));
    },
    ...CPP_RULES,
  },
  ...(process.env.TRUTH_CTAGS_CPP
    ? [
        {
          lang: 'cpp-given',
          source: process.env.TRUTH_CTAGS_CPP,
          prepare: (dir: string) => copyTree(process.env.TRUTH_CTAGS_CPP!, dir, (r) => /\.(h|hh|hpp|hxx|cc|cpp|cxx)$/.test(r)),
          ...CPP_RULES,
        },
      ]
    : []),
  {
    lang: 'rust',
    ctags: 'Rust',
    source: 'Rust std library: alloc/src (Debian rust-src)',
    prepare(dir) {
      const src = globDirs('/usr/src', /^rustc-/)
        .map((d) => path.join(d, 'library/alloc/src'))
        .find((d) => fs.existsSync(d));
      return !!src && copyTree(src, dir, (r) => r.endsWith('.rs') && !r.includes('tests'));
    },
    kinds: RUST_KINDS,
    excluded: { implementation: 'impl blocks (counted for precision: ctags tags an impl by its type)', macro: 'macro_rules! definitions' },
    // ctags tags an impl by the last name of its type outside generic arguments, past references, pointers and brackets:
    // `impl IntoIterator for &'a mut BTreeMap<K, V>` → BTreeMap, `impl [T]` → T, `impl IsZero for *const T` → T, `impl … for [T; N]` → N
    symbolName: implTypeName,
    untagged: RUST_UNTAGGED,
  },
  {
    lang: 'ruby',
    source: 'Ruby 3.1 standard library (/usr/lib/ruby/3.1.0, top-level and net/)',
    prepare(dir) {
      const lib = globDirs('/usr/lib/ruby', /^\d/)
        .map((d) => d)
        .find((d) => fs.existsSync(path.join(d, 'set.rb')));
      // vendor/ folders are skipped by lspgate's walk (bundled copies): out of the corpus, not misses
      return !!lib && copyTree(lib, dir, (r) => r.endsWith('.rb') && !r.includes('x86_64') && !r.split('/').includes('vendor'));
    },
    ...RUBY_RULES,
  },
  {
    lang: 'shell',
    source: 'bash-completion completions (copied with .bash)',
    prepare(dir) {
      const from = '/usr/share/bash-completion/completions';
      return (
        fs.existsSync(from) &&
        copyTree(
          from,
          dir,
          () => true,
          (r) => `${r.replace(/[^\w.-]/g, '_')}.bash`,
        )
      );
    },
    ...SHELL_RULES,
  },
  {
    lang: 'css',
    ctags: 'CSS',
    source: 'rustdoc style sheets and CSS under node_modules',
    prepare(dir) {
      let any = false;
      for (const from of [
        ...globDirs(path.join(os.homedir(), '.rustup/toolchains'), /^stable/).map((d) => path.join(d, 'share/doc/rust/html')),
        path.resolve('node_modules'),
      ]) {
        if (fs.existsSync(from))
          any = copyTree(from, path.join(dir, path.basename(path.dirname(from)) || 'css'), (r) => r.endsWith('.css') && !r.endsWith('.min.css')) || any;
      }
      return any;
    },
    kinds: ['class', 'id', 'selector'],
    excluded: {},
    notTagged: { variable: 'custom properties (--name: value)', module: 'at-rules (@media, @supports)' },
    byContainment: true,
  },
];

// held-out corpora (truth-ctags-debian.ts): a Rust crate, a C++ library with export macros, a Ruby web library, a shell project
CORPORA.push(
  {
    lang: 'rust-syn',
    ctags: 'Rust',
    source: `Debian ${DEBIAN.rust.pkg} ${DEBIAN.rust.version} (the syn crate's sources)`,
    prepare(dir) {
      const tree = debianTree(DEBIAN.rust.pkg, DEBIAN.rust.version);
      return !!tree && copyTree(path.join(tree, DEBIAN.rust.under), dir, (r) => r.endsWith('.rs'));
    },
    kinds: RUST_KINDS,
    excluded: { implementation: 'impl blocks (counted for precision: ctags tags an impl by its type)', macro: 'macro_rules! definitions' },
    symbolName: implTypeName,
    untagged: RUST_UNTAGGED,
  },
  {
    lang: 'cpp-spdlog',
    source: `Debian ${DEBIAN.cpp.pkg} ${DEBIAN.cpp.version} (spdlog's headers: SPDLOG_API, SPDLOG_INLINE)`,
    prepare(dir) {
      const tree = debianTree(DEBIAN.cpp.pkg, DEBIAN.cpp.version);
      return !!tree && copyTree(path.join(tree, DEBIAN.cpp.under), dir, (r) => /\.(h|hpp|cpp)$/.test(r));
    },
    ...CPP_RULES,
  },
  {
    lang: 'ruby-rack',
    source: `Debian ${DEBIAN.ruby.pkg} ${DEBIAN.ruby.version} (rack's lib/, test/ and examples)`,
    prepare(dir) {
      const tree = debianTree(DEBIAN.ruby.pkg, DEBIAN.ruby.version);
      return !!tree && copyTree(path.join(tree, DEBIAN.ruby.under), dir, (r) => r.endsWith('.rb'));
    },
    ...RUBY_RULES,
  },
  {
    lang: 'shell-git',
    source: `Debian ${DEBIAN.shell.pkg} ${DEBIAN.shell.version} (its shell scripts, kept under their own names: most have no extension, a #! line)`,
    prepare(dir) {
      const tree = debianTree(DEBIAN.shell.pkg, DEBIAN.shell.version);
      const from = tree && path.join(tree, DEBIAN.shell.under);
      return !!from && copyTree(from, dir, (r) => !/\.(so|mo|gz)$|\/locale\//.test(r) && isShellScript(path.join(from, r)));
    },
    ...SHELL_RULES,
    // ctags reads a file's #! line only when the file is executable, unless told to guess eagerly
    ctagsArgs: ['--guess-language-eagerly'],
  },
);

/**
 * C#: the .cs sources npm packages of Unity libraries ship (UniRx and UniTask, MIT), fetched with `npm pack` at
 * pinned versions (the npm registry is the one source this machine and CI reach); $TRUTH_CTAGS_CSHARP, a folder
 * of .cs files, replaces them.
 */
const CSHARP_PACKAGES = ['com.neuecc.unirx@7.1.0', 'com.cysharp.unitask@2.2.5'];
const CSHARP = process.env.TRUTH_CTAGS_CSHARP;
/** Unpacks each npm package of `specs` into `dir`/<name> (its .cs files); false when npm cannot fetch one. */
function packCsharp(dir: string, specs: string[]): boolean {
  const tmp = `${dir}.unzip`;
  fs.mkdirSync(tmp, { recursive: true });
  let any = false;
  for (const spec of specs) {
    try {
      const tgz = execFileSync('npm', ['pack', '--silent', spec], { cwd: tmp, encoding: 'utf8' }).trim().split('\n').pop()!;
      const out = path.join(tmp, spec.replace(/@[^@]*$/, ''));
      fs.mkdirSync(out, { recursive: true });
      execFileSync('tar', ['xzf', path.join(tmp, tgz), '-C', out]);
      any = copyTree(path.join(out, 'package'), path.join(dir, spec.replace(/@[^@]*$/, '')), (r) => r.endsWith('.cs')) || any;
    } catch (e) {
      process.stderr.write(`truth-ctags: csharp: npm pack ${spec} failed: ${e instanceof Error ? e.message : String(e)}\n`);
    }
  }
  return any;
}

CORPORA.push({
  lang: 'csharp',
  ctags: 'C#',
  source: CSHARP ?? `npm packages ${CSHARP_PACKAGES.join(', ')} (.cs sources)`,
  prepare: (dir) => (CSHARP ? copyTree(CSHARP, dir, (r) => r.endsWith('.cs')) : packCsharp(dir, CSHARP_PACKAGES)),
  kinds: ['class', 'interface', 'struct', 'enum', 'enumerator', 'method', 'property', 'field', 'event', 'namespace'],
  excluded: { local: 'locals' },
  // ctags 5.9 reads a generic constraint (`where TException : Exception`, `where TKey : class`) as a property or class named by its type
  falseLines: csharpConstraintLines,
  untagged: CSHARP_UNTAGGED,
  // ctags names an explicit interface implementation with its interface (`IDisposable.Dispose`), lspgate (and Roslyn's outline) by the member's name
  tagName: (t) => (['method', 'property', 'event'].includes(t.kind) ? (t.name.split('.').pop() ?? t.name) : t.name),
});

export interface Tag {
  file: string;
  line: number;
  name: string;
  kind: string;
  /** ctags's search pattern: the tagged line (`/^  X = 1$/`). */
  pattern: string;
}

export function ctagsOf(dir: string, language: string, extra: string[] = []): Tag[] {
  const out = execFileSync('ctags', ['--output-format=json', '--fields=+nK', ...extra, '-R', '-f', '-', `--languages=${language}`, '.'], {
    cwd: dir,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  });
  const tags: Tag[] = [];
  for (const line of out.split('\n')) {
    if (!line.startsWith('{')) continue;
    const t = JSON.parse(line) as { _type: string; name: string; path: string; line: number; kind: string; pattern?: string };
    if (t._type !== 'tag' || t.name.startsWith('__anon')) continue;
    tags.push({ file: t.path.replace(/^\.\//, ''), line: t.line, name: t.name, kind: t.kind, pattern: t.pattern ?? '' });
  }
  return tags;
}

/** The name as ctags writes it: the last segment of a qualified name (`Circle::area` → `area`). */
export function lastSegment(name: string): string {
  const m = /(?:::|\.)([^.:]+)$/.exec(name);
  return m && !name.startsWith('.') && !name.startsWith('#') ? m[1]! : name;
}

/**
 * ctags's tags of the C/C++ `#else` branches it did not read: ctags 5.9 reads the first branch of a
 * conditional and skips the rest (`#if A void f1(); #else void f2(); #endif` tags f1 only), but reads
 * the `#else` of an `#if 0`. A branch with no ctags tag of any kind is read again in a copy of its file
 * whose conditional opens with `#if 0` (every line kept where it was); the copy's tags inside that branch are kept.
 */
async function elseBranchesRead(dir: string, all: Tag[]): Promise<{ why: string; tags: Tag[] }> {
  const tagged = new Set(all.map((t) => `${t.file}:${t.line}`));
  const copy = `${dir}.else`;
  fs.rmSync(copy, { recursive: true, force: true });
  let branches = 0;
  const unread = new Set<string>();
  for (const file of new Set(all.map((t) => t.file))) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const lines = text.split('\n');
    let changed = false;
    await withSyntaxTree('cpp', text, (root) => {
      const stack = [root];
      while (stack.length) {
        const n = stack.pop()!;
        const group = n.parent;
        if (n.type === 'preproc_else' && group && group.type !== 'preproc_elif') {
          // the branch's code: past its `#else` line, up to the line before `#endif`
          const rows: number[] = [];
          for (let row = n.startPosition.row + 1; row <= n.endPosition.row; row++) rows.push(row);
          if (rows.every((r) => !tagged.has(`${file}:${r + 1}`)) && /^\s*#\s*if/.test(lines[group.startPosition.row] ?? '')) {
            branches++;
            for (const r of rows) unread.add(`${file}:${r + 1}`);
            // the `#if` line (and the lines its condition continues on) become `#if 0`
            const condition = group.childForFieldName('condition') ?? group.childForFieldName('name');
            const last = Math.max(group.startPosition.row, condition?.endPosition.row ?? 0);
            lines[group.startPosition.row] = '#if 0';
            for (let r = group.startPosition.row + 1; r <= last; r++) lines[r] = '';
            changed = true;
          }
        }
        for (const c of n.children) if (c) stack.push(c);
      }
    });
    if (changed) {
      fs.mkdirSync(path.dirname(path.join(copy, file)), { recursive: true });
      fs.writeFileSync(path.join(copy, file), lines.join('\n'));
    }
  }
  const tags = fs.existsSync(copy) ? ctagsOf(copy, 'C++', ['--kinds-C++=+p']).filter((t) => unread.has(`${t.file}:${t.line}`)) : [];
  fs.rmSync(copy, { recursive: true, force: true });
  return {
    why: `${branches} #else branches with no ctags tag, read again with their #if made #if 0 (ctags reads a conditional's first branch): ${tags.length} tags there`,
    tags,
  };
}

/** `file:line:name` of every identifier inside a C++ requires-expression's requirement braces, in the files ctags tagged. */
async function requirementNames(dir: string, all: Tag[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const file of new Set(all.map((t) => t.file))) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    await withSyntaxTree('cpp', text, (root) => {
      const stack: Array<{ n: typeof root; inside: boolean }> = [{ n: root, inside: false }];
      while (stack.length) {
        const { n, inside } = stack.pop()!;
        const now = inside || n.type === 'requirement_seq';
        if (now && n.type.endsWith('identifier') && n.childCount === 0) out.add(`${file}:${n.startPosition.row + 1}:${n.text}`);
        for (const c of n.children) if (c) stack.push({ n: c, inside: now });
      }
    });
  }
  return out;
}

/** A C++ name without its template argument lists (`A<B<int>>::f` → `A::f`); an operator's own `<` (`operator<<`) stays. */
function withoutTemplateArguments(name: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < name.length; i++) {
    if (name.startsWith('operator', i)) {
      // the name's own operator stays as written (`operator<<`); one inside the arguments (`decltype(operator<(…))`) is no bracket
      let j = i + 8;
      while (j < name.length && '<>=!+-*/%&|^~ '.includes(name[j]!)) j++;
      if (depth === 0) return (out + name.slice(i)).replace(/\s+/g, '');
      i = j - 1;
      continue;
    }
    const ch = name[i]!;
    if (ch === '<') depth++;
    else if (ch === '>' && depth > 0) depth--;
    else if (depth === 0) out += ch;
  }
  return out.replace(/\s+/g, '');
}
