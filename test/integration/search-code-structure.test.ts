/**
 * search_code over fixtures/search-ts (typescript-language-server): a class chunk is its header,
 * fields and member signatures, so the method that answers a question outranks its class; a long
 * Markdown section is cut into bounded pieces; `filter.is_test` keeps or drops test chunks; an
 * unknown filter key is INVALID_INPUT (not a filter silently not applied); two identical files fold
 * into one hit that counts the copy; `filter.path` is a glob over the whole path (`*.ts` is the
 * root's files, `**\/*.ts` all of them).
 */
import { describe, expect, it } from 'vitest';

import { DOC_MAX_LINES } from '../../src/chunks/doc-chunks.js';
import { openFixture } from '../helpers/gateway.js';
import type { JsonResult } from '../helpers/results.js';

describe('search_code: chunks from parse trees, and a filter that tells the truth', async () => {
  const fx = await openFixture('search-ts');
  const hits = async (query: string, extra: Record<string, unknown> = {}) => (await fx.run('search_code', { query, ...extra })).hits as JsonResult[];

  it("a class chunk holds its header, fields and member signatures; its method outranks it on the method's question", async () => {
    const found = await hits('reconcile the running balance against the bank statement', { include_text: true, limit: 5, filter: { is_test: false } });
    expect(found[0]!.chunk.symbol_name).toBe('Ledger.reconcileBalance');
    const ledger = (await hits('Ledger class entries currency', { include_text: true, limit: 10 })).find((h) => h.chunk.symbol_name === 'Ledger')!;
    expect(ledger.chunk.text.split('\n')).toEqual([
      'export class Ledger {',
      '  private readonly entries: Entry[] = [];',
      "  readonly currency: string = 'EUR';",
      '',
      '  /** Records one entry. */',
      '  record(entry: Entry): void { … }',
      '',
      '  /** Reconciles the running balance against the bank statement total. */',
      '  reconcileBalance(statementTotal: number): number { … }',
      '}',
    ]);
    // its citation is the class's lines, and the preview shows them as they are
    expect([ledger.citation.start_line, ledger.citation.end_line]).toEqual([7, 24]);
    expect(ledger.preview.lines[1]).toBe('  private readonly entries: Entry[] = [];');
    expect(ledger.stale_citation).toBe(false);
  });

  it('a long Markdown section is cut into bounded pieces, each named after its section', async () => {
    const docs = await hits('deployment rollback procedure health checks', { limit: 50, filter: { path: 'docs/**' } });
    expect(docs.length).toBeGreaterThan(5);
    for (const h of docs) {
      expect(h.chunk.chunk_kind).toBe('doc');
      expect(h.chunk.symbol_name).toBe('Operations handbook');
      expect(h.citation.end_line - h.citation.start_line + 1).toBeLessThanOrEqual(DOC_MAX_LINES);
    }
  });

  it('is_test keeps only test chunks, or none of them', async () => {
    const onlyTests = await hits('reconcile balance', { filter: { is_test: true } });
    expect(onlyTests.length).toBeGreaterThan(0);
    expect(onlyTests.every((h) => h.chunk.is_test && h.chunk.file === 'src/ledger.test.ts')).toBe(true);
    const noTests = await hits('reconcile balance', { filter: { is_test: false } });
    expect(noTests.length).toBeGreaterThan(0);
    expect(noTests.some((h) => h.chunk.is_test)).toBe(false);
  });

  it('an unknown filter key is INVALID_INPUT naming it', async () => {
    const e = await fx.runError('search_code', { query: 'reconcile', filter: { is_tests: true } });
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toContain('is_tests');
  });

  it('two identical files fold into one hit that counts and cites the copy', async () => {
    const found = await hits('slugify title url slug dashes', { limit: 3 });
    const slug = found.filter((h) => h.chunk.symbol_name === 'slugifyTitle');
    expect(slug.length).toBe(1);
    const other = slug[0]!.chunk.file === 'copies/one/slugify.ts' ? 'copies/two/slugify.ts' : 'copies/one/slugify.ts';
    expect(slug[0]!.duplicates).toEqual({ count: 1, citations: [{ file: other, start_line: 2, end_line: 7, commit_hash: slug[0]!.citation.commit_hash }] });
    // the slot the copy took before is another file's now
    expect(found.map((h) => h.chunk.file)).not.toContain(other);
  });

  it('filter.path is a glob over the whole path: `*.ts` is the root, `**/*.ts` every directory', async () => {
    const root = await hits('formats receipt amount', { filter: { path: '*.ts' }, limit: 10 });
    expect([...new Set(root.map((h) => h.chunk.file))]).toEqual(['root.ts']);
    const all = (await hits('formats receipt amount', { filter: { path: '**/*.ts' }, limit: 10 })).map((h) => h.chunk.file);
    expect(all).toContain('root.ts');
    expect(all).toContain('src/receipt.ts');
  });
});
