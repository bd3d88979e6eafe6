// Every syntax query of every language profile compiles for every grammar the profile declares
// (a TypeScript-only node compiled against the JavaScript grammar once failed the whole import
// graph with INTERNAL "Bad node name 'import_require_clause'"), and each profile's grammars are
// grammars the tree-sitter package ships.
import { describe, expect, it } from 'vitest';

import { languageProfiles, syntaxOf, syntaxQueries } from '../../src/adapters/languages.js';
import { LspgateError } from '../../src/errors/errors.js';
import { compileQuery, shippedGrammars, withSyntaxTree } from '../../src/syntax/syntax.js';

const pairs = languageProfiles().flatMap((p) => syntaxQueries(p));

describe('syntax queries per (profile, grammar)', () => {
  it('every profile declares grammars the package ships, and queries for them', () => {
    const shipped = new Set(shippedGrammars());
    for (const p of languageProfiles()) for (const g of Object.values(p.grammars)) expect([p.name, g, shipped.has(g)]).toEqual([p.name, g, true]);
    // each hook that has a query is compiled once per grammar of its profile (the profiles come
    // from the registry: a language added is counted without editing this test), and every grammar
    // a profile declares has a query that reads it
    for (const p of languageProfiles()) {
      const grammars = new Set(Object.values(p.grammars));
      const hooks = Object.values(p.syntax as Record<string, { query?: string } | undefined>).filter((h) => h?.query !== undefined);
      expect([p.name, pairs.filter((q) => q.profile === p.name).length]).toEqual([p.name, hooks.length * grammars.size]);
      for (const g of grammars) expect([p.name, g, pairs.some((q) => q.profile === p.name && q.grammar === g)]).toEqual([p.name, g, true]);
    }
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
    expect(
      ['a.ts', 'a.mts', 'a.cts', 'a.tsx', 'a.js', 'a.mjs', 'a.cjs', 'a.jsx', 'a.go', 'a.py', 'a.pyi', 'a.php', 'a.rs', 'a.zig'].map(
        (f) => syntaxOf(f)?.grammar,
      ),
    ).toEqual([
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
