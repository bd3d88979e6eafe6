// Every syntax query of every language profile compiles for every grammar the profile declares
// (a TypeScript-only node compiled against the JavaScript grammar once failed the whole import
// graph with INTERNAL "Bad node name 'import_require_clause'"), and each profile's grammars are
// grammars the tree-sitter package ships.
import { describe, expect, it } from 'vitest';
import { languageProfiles, syntaxOf, syntaxQueries } from '../../src/adapters/languages.js';
import { compileQuery, shippedGrammars, withSyntaxTree } from '../../src/syntax/syntax.js';
import { LspgateError } from '../../src/errors/errors.js';

const pairs = languageProfiles().flatMap((p) => syntaxQueries(p));

describe('syntax queries per (profile, grammar)', () => {
  it('every profile declares grammars the package ships, and queries for them', () => {
    const shipped = new Set(shippedGrammars());
    for (const p of languageProfiles()) for (const g of Object.values(p.grammars)) expect([p.name, g, shipped.has(g)]).toEqual([p.name, g, true]);
    // imports, patterns, complexity, type headers, decorations, bodies and named declarations for
    // each of the five profiles' grammars (typescript has two), renaming imports for all but Go's,
    // Python's script entry, PHP's doc comments, export lists for typescript's two grammars and
    // javascript's; the syntax catalog's declarations queries of python and of the seven
    // grammar-only profiles (the typescript, go and php ones walk the tree)
    expect(pairs.length).toBe(6 * 7 + 5 + 1 + 1 + 3 + 1 + 7);
  });

  it.each(pairs.map((q) => [`${q.profile} ${q.concern} × ${q.grammar}`, q] as const))('%s compiles', async (_name, q) => {
    await expect(compileQuery(q.grammar, q.source)).resolves.toBeDefined();
  });

  it('a query with a node its grammar lacks fails as INTERNAL naming the grammar', async () => {
    const e = await compileQuery('javascript', '(import_require_clause) @x').catch((err: unknown) => err);
    expect(e).toBeInstanceOf(LspgateError);
    expect((e as LspgateError).code).toBe('INTERNAL');
    expect((e as LspgateError).message).toContain('javascript grammar');
    expect((e as LspgateError).message).toContain('import_require_clause');
  });

  it('each extension parses with its own profile: .js, .mjs, .cjs and .jsx are JavaScript', () => {
    expect(['a.ts', 'a.mts', 'a.cts', 'a.tsx', 'a.js', 'a.mjs', 'a.cjs', 'a.jsx', 'a.go', 'a.py', 'a.pyi', 'a.php', 'a.rs', 'a.zig'].map((f) => syntaxOf(f)?.grammar)).toEqual([
      'typescript',
      'typescript',
      'typescript',
      'tsx',
      'javascript',
      'javascript',
      'javascript',
      'javascript',
      'go',
      'python',
      'python',
      'php',
      'rust',
      undefined,
    ]);
  });

  it('a grammar the package does not ship is INTERNAL, not a crash', async () => {
    const e = await withSyntaxTree('no-such-grammar', '', () => 0).catch((err: unknown) => err);
    expect((e as LspgateError).code).toBe('INTERNAL');
  });
});
