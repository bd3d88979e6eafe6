/**
 * The history corpus over a scratch copy of fixtures/corpus-ts made a git repository with a
 * pull-request merge and a squashed PR: commit_message chunks carry their commit and never go
 * stale; pr_background holds a PR's title and description, pr_solution the files it changed;
 * recent_prs names the PRs that touched a hit's file, cut at filter.as_of; the history kinds stay
 * out of a search that does not name them.
 */
import { execFileSync } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import type { JsonResult } from '../helpers/results.js';
import { openScratch } from '../helpers/scratch.js';

describe('search_code: commit messages and pull requests', async () => {
  const fx = await openScratch('corpus-ts');
  const git = (date: string, ...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@e', ...args], {
      cwd: fx.root,
      env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    }).toString();
  git('2024-01-01T00:00:00Z', 'init', '-q', '-b', 'main');
  git('2024-01-01T00:00:00Z', 'add', '.');
  git('2024-01-01T00:00:00Z', 'commit', '-qm', 'Initial import of payments');
  git('2024-02-01T00:00:00Z', 'checkout', '-qb', 'harden');
  fx.write('src/auth.ts', fx.read('src/auth.ts').replace('let diff', 'let diff: number'));
  git('2024-02-01T00:00:00Z', 'commit', '-qam', 'Type the diff accumulator');
  git('2024-03-01T00:00:00Z', 'checkout', '-q', 'main');
  git(
    '2024-03-01T00:00:00Z',
    'merge',
    '-q',
    '--no-ff',
    'harden',
    '-m',
    'Merge pull request #12 from me/harden',
    '-m',
    'Constant-time token check',
    '-m',
    'Timing leaked the prefix.',
  );
  fx.write('src/payments.ts', fx.read('src/payments.ts').replace('return -p.cents;\n}', 'return -Math.round(p.cents);\n}'));
  git('2024-04-01T00:00:00Z', 'commit', '-qam', 'Round refunds (#15)', '-m', 'Refunds of fractional cents failed.');
  const head = git('2024-04-01T00:00:00Z', 'rev-parse', 'HEAD').trim();

  const search = async (query: string, filter: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    (await fx.run('search_code', { query, filter, limit: 50, include_text: true, ...extra })).hits as JsonResult[];

  it('commit_message chunks carry their commit and never go stale; as_of leaves out later ones', async () => {
    const commits = await search('*', { chunk_kinds: ['commit_message'] });
    expect(commits.map((h) => h.chunk.symbol_name).sort()).toEqual([
      'Initial import of payments',
      'Merge pull request #12 from me/harden',
      'Round refunds (#15)',
      'Type the diff accumulator',
    ]);
    const round = commits.find((h) => h.chunk.symbol_name === 'Round refunds (#15)')!;
    expect(round.citation.commit_hash).toBe(head);
    expect(round.chunk.committed_at_utc).toBe('2024-04-01T00:00:00.000Z');
    expect(round.chunk.text).toContain('Files: src/payments.ts');
    expect(commits.every((h) => h.stale_citation === false)).toBe(true);
    const early = await search('*', { chunk_kinds: ['commit_message'], as_of: '2024-02-15T00:00:00Z' });
    expect(early.map((h) => h.chunk.symbol_name).sort()).toEqual(['Initial import of payments', 'Type the diff accumulator']);
  });

  it('pr_background holds title and description; pr_solution the files; merges and squashes both count', async () => {
    const [bg] = await search('timing leaked prefix', { chunk_kinds: ['pr_background'] });
    expect(bg!.chunk.text).toBe('PR #12: Constant-time token check\n\nTiming leaked the prefix.');
    const sol = await search('*', { chunk_kinds: ['pr_solution'] });
    expect(sol.map((h) => h.chunk.text).sort()).toEqual([
      'PR #12: Constant-time token check\n\nChanged: src/auth.ts',
      'PR #15: Round refunds\n\nChanged: src/payments.ts',
    ]);
  });

  it('recent_prs on hits whose file a PR touched, cut at as_of; history stays out of a search not naming it', async () => {
    const [m] = await search('*', { chunk_kinds: ['symbol'], symbol: 'TokenCheck.matches' }, { recent_prs: true });
    expect(m!.chunk.recent_prs).toEqual([{ number: 12, title: 'Constant-time token check', merged_at_utc: '2024-03-01T00:00:00.000Z' }]);
    const [old] = await search('*', { chunk_kinds: ['symbol'], symbol: 'TokenCheck.matches', as_of: '2024-02-01T00:00:00Z' }, { recent_prs: true });
    expect(old!.chunk.recent_prs).toEqual([]);
    const plain = await search('constant time token prefix timing', {});
    expect(plain.length).toBeGreaterThan(0);
    expect(plain.filter((h) => ['commit_message', 'pr_background', 'pr_solution'].includes(h.chunk.chunk_kind))).toEqual([]);
    expect((await fx.run('index_stats')).chunk_kinds.pr_background).toBe(2);
  });
});
