/**
 * search_code end to end over typescript-language-server on a git copy of fixtures/ts-app (plus a
 * long function and a Markdown file written here): chunks sit exactly on the catalog's symbol
 * ranges, long functions are cut at statement boundaries, the header and Markdown sections are
 * chunks, a hit's symbol_id feeds get_function_details, an edit makes the old citation stale (and
 * says where the lines moved) while the new hit is fresh, only the edited file is re-chunked, and
 * a commit moves commit_hash; vector and hybrid modes rank with the local embedder.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import { syncChunks } from '../../src/service/search/chunk-sync.js';
import { FIXTURES } from '../helpers/gateway.js';

type Hit = {
  chunk: {
    id: string;
    file: string;
    start_line: number;
    end_line: number;
    chunk_kind: string;
    symbol_name?: string;
    symbol_id?: string;
    commit_hash: string;
    content_sha256: string;
    text?: string;
    is_test: boolean;
    language: string;
  };
  citation: { file: string; start_line: number; end_line: number; commit_hash: string };
  stale_citation: boolean;
  preview: { start_line: number; lines: string[] };
  score: { normalized: number; bm25_score: number };
  symbol?: { symbol_id: string };
};

const git = (root: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: root, encoding: 'utf8' }).trim();

function longFunction(): string {
  const body: string[] = [];
  for (let i = 0; i < 40; i++) body.push(`  total += step${i}(values[${i}]);`, `  if (total > ${1000 + i}) {`, `    total = total % ${97 + i};`, '  }');
  return ['export function reconcileLedgerTotals(values: number[]): number {', '  let total = 0;', ...body, '  return total;', '}', ''].join('\n');
}

describe('search_code over typescript-language-server', () => {
  let root: string;
  let cacheDir: string;
  let gateway: Gateway;
  const run = async (op: string, input: Record<string, unknown>) =>
    (await gateway.run(op, { ...input, output_format: 'json' })).result as Record<string, unknown>;
  const search = async (query: string, extra: Record<string, unknown> = {}) => (await run('search_code', { query, ...extra })).hits as Hit[];

  beforeAll(async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-chunks-')));
    fs.cpSync(path.join(FIXTURES, 'ts-app'), root, { recursive: true });
    const steps = Array.from({ length: 40 }, (_, i) => `const step${i} = (v: number | undefined) => (v ?? 0) + ${i};`).join('\n');
    fs.writeFileSync(
      path.join(root, 'src/util/ledger.ts'),
      `import { add } from './math';\n\n${steps}\n\n${longFunction()}\nexport const twice = (n: number) => add(n, n);\n`,
    );
    fs.writeFileSync(
      path.join(root, 'NOTES.md'),
      '# Project notes\n\nGeneral words.\n\n## Deployment rollback procedure\n\nRevert the release tag, then redeploy.\n',
    );
    git(root, 'init', '-q');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'fixture');
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-'));
    gateway = await Gateway.create({ root, cacheDir });
  });
  afterAll(async () => {
    await gateway.close();
    fs.rmSync(cacheDir, { recursive: true, force: true });
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('ranks the function that answers a question first, cited exactly on its catalog range', async () => {
    const hits = await search('pad a value on the left', { include_text: true });
    const top = hits[0]!;
    expect(top.chunk.symbol_name).toBe('padLeft');
    expect(top.chunk.chunk_kind).toBe('symbol');
    expect(top.citation.commit_hash).toBe(git(root, 'rev-parse', 'HEAD'));
    expect(top.stale_citation).toBe(false);
    const sym = (await run('get_symbol', { symbol_id: top.symbol!.symbol_id })).symbol as { line: number; end_line: number };
    expect([top.citation.start_line, top.citation.end_line]).toEqual([sym.line, sym.end_line]);
    const lines = fs.readFileSync(path.join(root, top.chunk.file), 'utf8').split('\n');
    expect(top.chunk.text).toBe(lines.slice(sym.line - 1, sym.end_line).join('\n'));
    expect(top.preview.lines[0]).toContain('export function padLeft');
    expect(top.score.normalized).toBe(1);
    const details = (await run('get_function_details', { symbol_id: top.symbol!.symbol_id })) as { function: { name: string } } & Record<string, unknown>;
    expect(JSON.stringify(details)).toContain('padLeft');
  });

  it('every symbol chunk of a file sits on a catalog symbol range', async () => {
    const hits = await search('shape area perimeter', { filter: { path: 'src/models/**' }, limit: 50 });
    expect(hits.length).toBeGreaterThan(2);
    for (const h of hits.filter((x) => x.chunk.chunk_kind === 'symbol')) {
      expect(h.chunk.file.startsWith('src/models/')).toBe(true);
      const sym = (await run('get_symbol', { symbol_id: h.chunk.symbol_id! })).symbol as { line: number; end_line: number };
      expect([h.chunk.start_line, h.chunk.end_line]).toEqual([sym.line, sym.end_line]);
    }
  });

  it('cuts a long function at statement boundaries, header and Markdown sections are chunks', async () => {
    // search_code answers one hit per symbol (the pieces fold into the best one): the pieces are the index's
    const found = (await search('reconcileLedgerTotals', { limit: 20, include_text: true })).filter((h) => h.chunk.symbol_name === 'reconcileLedgerTotals');
    expect(found).toHaveLength(1);
    const report = await syncChunks(await gateway.workspaceFor(undefined), gateway.context.limits);
    const pieces = report.index
      .search('reconcileLedgerTotals', undefined, 20)
      .map((h) => ({ chunk: h.chunk }))
      .filter((h) => h.chunk.symbol_name === 'reconcileLedgerTotals');
    expect(pieces.length).toBeGreaterThan(1);
    pieces.sort((a, b) => a.chunk.start_line - b.chunk.start_line);
    const lines = fs.readFileSync(path.join(root, 'src/util/ledger.ts'), 'utf8').split('\n');
    const fnLine = lines.findIndex((l) => l.startsWith('export function reconcileLedgerTotals')) + 1;
    expect(pieces[0]!.chunk.start_line).toBe(fnLine);
    for (let i = 0; i < pieces.length; i++) {
      expect(pieces[i]!.chunk.chunk_kind).toBe('function_split');
      if (i > 0) {
        expect(pieces[i]!.chunk.start_line).toBe(pieces[i - 1]!.chunk.end_line + 1);
        // Each later piece begins with a whole statement at body depth.
        expect(pieces[i]!.chunk.text!.split('\n')[0]).toMatch(/^ {2}(total \+=|return|if|let)/);
      }
    }
    expect(lines[pieces.at(-1)!.chunk.end_line - 1]).toBe('}');

    const header = (await search('import add math', { filter: { path: 'src/util/ledger.ts' }, limit: 50 })).find((h) => h.chunk.chunk_kind === 'file_header');
    expect(header?.chunk.start_line).toBe(1);
    const doc = (await search('deployment rollback'))[0]!;
    expect(doc.chunk.chunk_kind).toBe('doc');
    expect(doc.chunk.file).toBe('NOTES.md');
    expect(doc.chunk.start_line).toBe(5);
    expect(doc.chunk.language).toBe('markdown');
  });

  it('an edit makes the old citation stale with where it moved; only that file is re-chunked; the new hit is fresh', async () => {
    const ws = await gateway.workspaceFor(undefined);
    // the first searches may have answered from the syntax tier: once the server has cataloged
    // every file (its entries re-cut at its ranges), the chunks are at rest
    await ws.catalog.build();
    await syncChunks(ws, gateway.context.limits);
    const before = (await search('pad a value on the left'))[0]!;
    const other = (await search('capitalize first letter'))[0]!;
    const file = path.join(root, 'src/util/strings.ts');
    fs.writeFileSync(file, `// added line one\n// added line two\n${fs.readFileSync(file, 'utf8')}`);
    await ws.catalog.refresh(['src/util/strings.ts']);
    const report = await syncChunks(ws, gateway.context.limits);
    expect(report.rechunked).toEqual(['src/util/strings.ts']);

    const check = (await run('verify_citation', { citation: before.citation })) as {
      content_matches: boolean;
      stale: boolean;
      moved_to?: { start_line: number; end_line: number };
    };
    expect(check.content_matches).toBe(false);
    expect(check.stale).toBe(true);
    expect(check.moved_to).toMatchObject({ start_line: before.citation.start_line + 2, end_line: before.citation.end_line + 2 });

    const after = (await search('pad a value on the left'))[0]!;
    expect(after.citation.start_line).toBe(before.citation.start_line + 2);
    expect(after.stale_citation).toBe(false);
    expect(after.chunk.id).not.toBe(before.chunk.id);
    expect(after.chunk.content_sha256).toBe(before.chunk.content_sha256);
    const fresh = (await run('verify_citation', { citation: after.citation })) as { stale: boolean };
    expect(fresh.stale).toBe(false);
    const untouched = (await search('capitalize first letter'))[0]!;
    expect(untouched.chunk.file).toBe(other.chunk.file);
  });

  it('a commit moves commit_hash; the old commit citation is stale by commit', async () => {
    const before = (await search('joins every part with the separator'))[0]!;
    git(root, 'commit', '-qam', 'edit');
    const head = git(root, 'rev-parse', 'HEAD');
    expect(head).not.toBe(before.citation.commit_hash);
    const after = (await search('joins every part with the separator'))[0]!;
    expect(after.citation.commit_hash).toBe(head);
    expect(after.stale_citation).toBe(false);
    const check = (await run('verify_citation', { citation: before.citation, content_sha256: before.chunk.content_sha256 })) as {
      commit_moved: boolean;
      stale: boolean;
      content_matches: boolean;
      current_head: string;
    };
    expect(check).toMatchObject({ commit_moved: true, stale: true, content_matches: true, current_head: head });
    const stats = (await run('index_stats', {})) as { indexed_head: string; chunk_count: number; schema_version: string };
    expect(stats.indexed_head).toBe(head);
    expect(stats.chunk_count).toBeGreaterThan(10);
    const pinned = await search('joins every part', { filter: { commit_hash: before.citation.commit_hash } });
    expect(pinned).toEqual([]);
  });

  it('vector mode scores by cosine, hybrid fuses both ranks', async () => {
    type Scored = Hit & { score: { vector_distance: number; vector_rank: number; hybrid_rank: number } };
    const vec = (await search('pad a value on the left', { mode: 'vector' })) as Scored[];
    expect(vec[0]!.chunk.symbol_name).toBe('padLeft');
    expect(vec.map((h) => h.score.vector_rank)).toEqual(vec.map((_, i) => i + 1));
    expect(vec[0]!.score.normalized).toBeCloseTo(1 - vec[0]!.score.vector_distance / 2, 6);
    const hyb = (await search('pad a value on the left', { mode: 'hybrid', limit: 5 })) as Scored[];
    expect(hyb[0]!.chunk.symbol_name).toBe('padLeft');
    expect(hyb.map((h) => h.score.hybrid_rank)).toEqual([1, 2, 3, 4, 5]);
    expect(hyb[0]!.score.bm25_score).toBeGreaterThan(0);
    expect(hyb[0]!.score.vector_rank).toBe(1);
  });

  it('answers seed 003 search with anchor, preview and score', async () => {
    const r = (await run('search', { query: 'pad a value on the left', directory: 'src/util' })) as {
      results: { anchor: { file: string; line: number }; preview: { lines: string[]; startLine: number }; score: number }[];
    };
    expect(r.results[0]!.anchor.file).toBe(path.join(root, 'src/util/strings.ts'));
    expect(r.results[0]!.preview.lines.length).toBeLessThanOrEqual(10);
    expect(r.results.every((x) => x.anchor.file.startsWith(path.join(root, 'src/util/')))).toBe(true);
  });
});
