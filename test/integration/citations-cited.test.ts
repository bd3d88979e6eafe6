/**
 * verify_citation without content_sha256 judges a citation against the content it cited, never
 * against whatever chunk covers its lines now: an edit in place keeps the range and the commit (the
 * chunk that covers the lines now holds the edited text), and another function can come to sit on
 * exactly the cited lines. Before, the first was reported fresh and the second too.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { Gateway } from '../../src/gateway/gateway.js';
import { syncChunks } from '../../src/service/search/chunk-sync.js';
import { FIXTURES } from '../helpers/gateway.js';

type Citation = { file: string; start_line: number; end_line: number; commit_hash: string };
type Hit = { chunk: { symbol_name?: string; content_sha256: string }; citation: Citation; stale_citation: boolean };
type Check = { content_matches: boolean; stale: boolean; judged_against: string; moved_to?: Citation };

const git = (root: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', ...args], { cwd: root, encoding: 'utf8' }).trim();

describe('verify_citation judges against the cited content', () => {
  let root: string;
  let cacheDir: string;
  let gateway: Gateway;
  const run = async (op: string, input: Record<string, unknown>) =>
    (await gateway.run(op, { ...input, output_format: 'json' })).result as Record<string, unknown>;
  const top = async (query: string) => ((await run('search_code', { query, limit: 1 })).hits as Hit[])[0]!;
  const verify = async (citation: Citation) => (await run('verify_citation', { citation })) as unknown as Check;
  const file = () => path.join(root, 'src/util/strings.ts');
  /** Edits strings.ts and re-chunks it (as a search would), without handing out a citation. */
  const edit = async (from: string, to: string) => {
    fs.writeFileSync(file(), fs.readFileSync(file(), 'utf8').replace(from, to));
    const ws = await gateway.workspaceFor(undefined);
    await ws.catalog.refresh(['src/util/strings.ts']);
    expect((await syncChunks(ws, gateway.context.limits)).rechunked).toEqual(['src/util/strings.ts']);
  };

  beforeAll(async () => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-cite-')));
    fs.cpSync(path.join(FIXTURES, 'ts-app'), root, { recursive: true });
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

  it('an edit in place (same lines, same commit) makes the citation stale, though the new chunk sits on the same lines', async () => {
    const before = await top('pad a value on the left');
    expect(before.chunk.symbol_name).toBe('padLeft');
    expect((await verify(before.citation)).stale).toBe(false);
    await edit('return value.padStart(width, fill);', 'return value.padEnd(width, fill);');
    // the chunk on the cited lines now holds the edited text (same lines, same commit)
    const check = await verify(before.citation);
    expect([check.content_matches, check.stale, check.judged_against]).toEqual([false, true, 'handed_out']);
    const after = await top('pad a value on the left');
    expect(after.citation).toEqual(before.citation);
    expect(after.chunk.content_sha256).not.toBe(before.chunk.content_sha256);
    // the same citation was now handed out for two contents: it cannot say which it meant
    expect((await gateway.run('verify_citation', { citation: before.citation }).catch((e: { code: string }) => e)) as { code: string }).toMatchObject({
      code: 'INVALID_INPUT',
    });
    // with the content passed back, the first one is stale and the second fresh
    const old = (await run('verify_citation', { citation: before.citation, content_sha256: before.chunk.content_sha256 })) as unknown as Check;
    expect([old.content_matches, old.stale, old.judged_against]).toEqual([false, true, 'content_sha256']);
  });

  it('a citation handed out once is judged against what it cited, not the chunk now on its lines', async () => {
    git(root, 'commit', '-qam', 'padEnd');
    const cited = await top('joins every part with the separator');
    expect(cited.chunk.symbol_name).toBe('joinAll');
    // a function of the same length replaces the lines joinAll was cited on; joinAll moves down
    await edit(
      '/** Joins every part with the separator. */',
      '/** Doubles a text by concatenation. */\nexport function duplicateText(text: string): string {\n  return text + text;\n}\n\n/** Joins every part with the separator. */',
    );
    const check = await verify(cited.citation);
    expect([check.content_matches, check.stale, check.judged_against]).toEqual([false, true, 'handed_out']);
    expect(check.moved_to).toMatchObject({ start_line: cited.citation.start_line + 5, end_line: cited.citation.end_line + 5 });
    // the chunk on the cited lines now is the new function's
    const other = await top('doubles a text by concatenation');
    expect(other.chunk.symbol_name).toBe('duplicateText');
    expect(other.citation).toEqual(cited.citation);
  });

  it('a citation this index never handed out is judged against its lines at its commit (git)', async () => {
    const head = git(root, 'rev-parse', 'HEAD');
    // the first two lines of formatName: no chunk was ever cut there
    const check = await verify({ file: 'src/util/strings.ts', start_line: 7, end_line: 8, commit_hash: head });
    expect([check.content_matches, check.stale, check.judged_against]).toEqual([true, false, 'commit']);
  });
});
