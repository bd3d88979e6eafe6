// Languages lspgate parses but runs no server for (fixtures/grammar-only: Java, C#, C++, Rust,
// Ruby, shell, CSS) get the syntax tier: get_file_outline, search_symbols, get_symbol and
// search_code answer from their syntax trees (index_state syntax, the reason in a warning), and a
// semantic operation answers SERVER_NOT_INSTALLED naming a common server to install.
import { describe, expect, it } from 'vitest';

import { openFixture } from '../helpers/gateway.js';

interface OutlineNode {
  name: string;
  kind: string;
  children?: OutlineNode[];
}

const flat = (nodes: OutlineNode[], pre = ''): string[] => nodes.flatMap((n) => [`${pre}${n.name}#${n.kind}`, ...flat(n.children ?? [], `${pre}${n.name}.`)]);

const CASES = [
  {
    language: 'java',
    file: 'java/com/example/InvoiceService.java',
    outline: ['InvoiceService#class', 'InvoiceService.totalOf#method', 'InvoiceService.InvoiceService#constructor', 'InvoiceService.Status.SENT#enum_member'],
    name: 'totalOf',
    source: 'public long totalOf(Invoice invoice)',
    server: 'jdtls',
  },
  {
    language: 'csharp',
    file: 'csharp/Shipping.cs',
    outline: [
      'Shop.Shipping#namespace',
      'Shop.Shipping.ParcelQuoter.QuoteParcel#method',
      'Shop.Shipping.ParcelQuoter.Carrier#property',
      'Shop.Shipping.IQuoter#interface',
    ],
    name: 'QuoteParcel',
    source: 'public decimal QuoteParcel(int grams)',
    server: 'csharp-ls',
  },
  {
    language: 'cpp',
    file: 'cpp/geometry.cpp',
    outline: ['geometry#namespace', 'geometry.Circle#class', 'geometry.Circle::circleArea#method', 'geometry.clampValue#function'],
    name: 'clampValue',
    source: 'int clampValue(int v, int lo, int hi)',
    server: 'clangd',
  },
  {
    language: 'rust',
    file: 'rust/src/lib.rs',
    outline: ['GridPoint#struct', 'GridPoint.x#field', 'Distance#interface', 'impl Distance for GridPoint.manhattan#method', 'origin_point#function'],
    name: 'origin_point',
    source: 'pub fn origin_point() -> GridPoint',
    server: 'rust-analyzer',
  },
  {
    language: 'ruby',
    file: 'ruby/lib/cart.rb',
    outline: ['Shop#module', 'Shop.Cart#class', 'Shop.Cart.cart_total#method', 'Shop.Cart.MAX_ITEMS#constant', 'Shop.Cart.items#field'],
    name: 'cart_total',
    source: 'def cart_total',
    server: 'ruby-lsp',
  },
  {
    language: 'shellscript',
    file: 'shell/deploy.sh',
    outline: ['deploy_release#function', 'TARGET_DIR#variable'],
    name: 'deploy_release',
    source: 'deploy_release() {',
    server: 'bash-language-server',
  },
  {
    language: 'css',
    file: 'css/buttons.css',
    outline: ['.primary-button#class', '@media (max-width: 600px)#module', ':root.--brand-color#variable'],
    name: 'primary-button',
    source: '.primary-button {',
    server: 'vscode-css-language-server',
  },
];

describe('grammar-only languages: the syntax tier answers, semantic operations say what to install', async () => {
  const fx = await openFixture('grammar-only');

  it.each(CASES.map((c) => [c.language, c] as const))('%s: outline, search_symbols, get_symbol, search_code', async (_language, c) => {
    const outline = await fx.run('get_file_outline', { file: c.file, detail: 'names' });
    expect(outline._meta.index_state).toBe('syntax');
    expect(outline.language).toBe(c.language);
    expect(flat(outline.symbols as OutlineNode[])).toEqual(expect.arrayContaining(c.outline));

    const search = await fx.run('search_symbols', { query: c.name, file_pattern: c.file });
    expect(search._meta.index_state).toBe('syntax');
    expect(search._meta.warnings?.join(' ')).toContain('no language server here (NO_SERVER');
    const hit = (search.results as { symbol_id: string; file: string; language: string }[])[0]!;
    expect([hit.file, hit.language]).toEqual([c.file, c.language]);

    const source = await fx.run('get_symbol', { symbol_id: hit.symbol_id });
    expect(source._meta.index_state).toBe('syntax');
    expect(source.source as string).toContain(c.source);

    const code = await fx.run('search_code', { query: c.name, filter: { path: c.file } });
    expect((code.hits as { citation: { file: string } }[]).map((h) => h.citation.file)).toContain(c.file);
  });

  it.each(CASES.map((c) => [c.language, c] as const))('%s: find_references answers SERVER_NOT_INSTALLED with an install hint', async (_language, c) => {
    const e = await fx.runError('find_references', { file: c.file, line: 1, column: 1 });
    expect(e.code).toBe('SERVER_NOT_INSTALLED');
    expect(e.details).toMatchObject({ language: c.language });
    expect(String((e.details as { install?: string }).install)).toContain(c.server);
  });

  it.each(CASES.map((c) => [c.language, c] as const))(
    '%s: find_definition by name answers the declaration from the catalog, labelled syntax, with the install hint',
    async (_language, c) => {
      const r = await fx.run('find_definition', { symbol: c.name });
      expect(r._meta.index_state).toBe('syntax');
      expect(r.found).toBe(true);
      expect((r.definitions as { file: string }[]).map((d) => d.file)).toContain(c.file);
      expect(r._meta.warnings?.join(' ')).toContain(c.server);
      // what only a server resolves still says what to install, asked by name too
      const e = await fx.runError('find_references', { symbol: c.name });
      expect(e.code).toBe('SERVER_NOT_INSTALLED');
    },
  );

  it('the workspace lists them at the syntax tier, none failed', async () => {
    const repos = await fx.run('list_repos');
    const repo = (
      repos.repos as { root: string; failed_files: number; tiers: { syntax_files: number; server_files: number; syntax_only: Record<string, number> } }[]
    ).find((r) => r.root === fx.root)!;
    expect(repo.failed_files).toBe(0);
    expect(repo.tiers).toMatchObject({ syntax_files: CASES.length, server_files: 0, syntax_only: { NO_SERVER: CASES.length } });
  });
});
