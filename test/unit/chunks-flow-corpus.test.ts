/**
 * The flow corpus and the policy as data (chunks/flow-corpus.ts, policy.ts, corpus-input.ts): the
 * JSONL records in seed 004's shapes, the caps every parsed input has (nesting, line length, unknown
 * fields said), the names verified through a resolver (a removed symbol listed, never dropped), the
 * ids records name of each other checked, path rules giving a category (first rule wins), and a
 * repository's `.lspgate/` file never read through a symlink.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { jsonDepth, MAX_DATA_BYTES, readDataFile } from '../../src/chunks/corpus-input.js';
import { flowChunks, parseFlowCorpus, type Resolved } from '../../src/chunks/flow-corpus.js';
import { contentSha256 } from '../../src/chunks/ids.js';
import { categorizer, parsePolicy } from '../../src/chunks/policy.js';

const CORPUS = [
  '{"chunk_kind":"flow_spine","text":"login","flow_spine":{"flow_id":"login","entry_point":"handleLogin","links":["logout","nowhere"]}}',
  '{"chunk_kind":"flow_step","text":"checks the password","flow_step":{"flow_id":"login","step_id":"1","symbol":"checkPassword","calls":["hash","oldHash"],"branches":[{"when":"wrong password","then":"401","at":"src/auth.ts:12"}],"invariants":["INV-1","INV-9"]}}',
  '',
  '{"chunk_kind":"invariant","provenance":"curated","id":"INV-1","text":"never log a password","enforced_at":[{"flow":"login","step":"1","loc":"src/auth.ts:12"},{"flow":"login","step":"7","loc":"src/auth.ts:99"}]}',
].join('\n');

const KNOWN: Record<string, Resolved> = {
  handleLogin: { file: 'src/http.ts', start_line: 3, end_line: 9, content_sha256: 'a'.repeat(64), language: 'typescript', symbol_name: 'handleLogin' },
  checkPassword: { file: 'src/auth.ts', start_line: 10, end_line: 20, content_sha256: 'b'.repeat(64), language: 'typescript', symbol_name: 'checkPassword' },
  hash: { file: 'src/auth.ts', start_line: 1, end_line: 4, content_sha256: 'c'.repeat(64), language: 'typescript' },
  'src/auth.ts:12': { file: 'src/auth.ts', start_line: 12, end_line: 12, content_sha256: 'd'.repeat(64), language: 'typescript' },
};
const resolve = (ref: string) => Promise.resolve(KNOWN[ref]);

describe('the flow corpus', () => {
  it('reads the three record kinds in seed 004 shapes', () => {
    const c = parseFlowCorpus(CORPUS);
    expect(c.problems).toEqual([]);
    expect(c.spines[0]!.meta).toEqual({ flow_id: 'login', entry_point: 'handleLogin', links: ['logout', 'nowhere'] });
    expect(c.steps[0]!.meta.branches).toEqual([{ when: 'wrong password', then: '401', at: 'src/auth.ts:12' }]);
    expect(c.invariants[0]).toMatchObject({ id: 'INV-1', tier: 2, line: 4 });
  });

  it('verifies every name: what does not resolve is listed and left on the chunk, and its chunk cites the corpus line', async () => {
    const c = parseFlowCorpus(CORPUS);
    const made = await flowChunks(c, { file: '.lspgate/corpus.jsonl', commitHash: 'h' }, resolve);
    expect(made.unresolved.map((u) => `${u.line} ${u.field} ${u.ref}`)).toEqual([
      '1 links logout',
      '1 links nowhere',
      '2 calls oldHash',
      '2 invariants INV-9',
      '4 enforced_at[1].loc src/auth.ts:99',
      '4 enforced_at[1].step login/7',
    ]);
    const [spine, step, inv] = made.chunks;
    expect([spine!.file, spine!.start_line, spine!.symbol_name, spine!.unresolved]).toEqual([
      'src/http.ts',
      3,
      'handleLogin',
      ['links logout', 'links nowhere'],
    ]);
    // cited at its own symbol, not at a callee that resolved
    expect([step!.file, step!.start_line, step!.end_line, step!.content_sha256]).toEqual(['src/auth.ts', 10, 20, 'b'.repeat(64)]);
    expect([inv!.chunk_kind, inv!.provenance, inv!.marker, inv!.start_line]).toEqual(['invariant', 'curated', 'INV-1', 12]);
    // a step whose symbol is gone cites its corpus line, with that line's hash
    const gone = await flowChunks(c, { file: '.lspgate/corpus.jsonl', commitHash: 'h' }, () => Promise.resolve(undefined));
    const step2 = gone.chunks[1]!;
    expect([step2.file, step2.start_line, step2.content_sha256, step2.unresolved?.[0]]).toEqual([
      '.lspgate/corpus.jsonl',
      2,
      contentSha256(CORPUS.split('\n')[1]!),
      'symbol checkPassword',
    ]);
  });

  it('a flow chunk never takes the id of the code chunk at the same lines', async () => {
    const made = await flowChunks(parseFlowCorpus(CORPUS), { file: 'c.jsonl', commitHash: 'h' }, resolve);
    const ids = new Set(made.chunks.map((c) => c.id));
    expect(ids.size).toBe(3);
  });

  it('is bounded: nesting, line length, kinds and fields not understood are problems, the other lines kept', () => {
    const lines = [
      '[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]',
      `{"chunk_kind":"flow_spine","text":"${'x'.repeat(70_000)}","flow_spine":{"flow_id":"big"}}`,
      '{"chunk_kind":"flow_loop","text":"?"}',
      '{"chunk_kind":"flow_step","flow_step":{"flow_id":"a b","step_id":"1","colour":"red"}}',
      'not json',
      '{"chunk_kind":"flow_spine","flow_spine":{"flow_id":"ok"}}',
    ];
    const c = parseFlowCorpus(lines.join('\n'));
    expect(c.problems).toEqual([
      'line 1 nests deeper than 8',
      'line 2 is over 65536 characters',
      'line 3: chunk_kind "flow_loop" is not flow_spine, flow_step or invariant',
      'line 4 flow_step: unknown field "colour"',
      'line 4: flow_id "a b" is not an id (letters, digits, . _ : / # -)',
      expect.stringMatching(/^line 5 is not JSON/),
    ]);
    expect(c.spines.map((s) => s.meta.flow_id)).toEqual(['ok']);
    expect(jsonDepth('{"a":"[[[[[[[[[[[["}')).toBe(1);
  });
});

describe('the policy', () => {
  it('gives each path the first matching rule’s category and guidance; a glob without / matches a file name anywhere', () => {
    const p = parsePolicy(
      JSON.stringify({
        rules: [
          { category: 'crypto', paths: ['*.pem.ts', 'src/crypto/**'], guidance: { watch_out: ['constant time'] } },
          { category: 'core', paths: ['src/**'] },
        ],
      }),
    );
    expect(p.problems).toEqual([]);
    const cat = categorizer(p);
    expect(cat('src/crypto/aes.ts')).toEqual({ category: 'crypto', guidance: { watch_out: ['constant time'] } });
    expect(cat('lib/x/key.pem.ts')?.category).toBe('crypto');
    expect(cat('src/app.ts')).toEqual({ category: 'core' });
    expect(cat('README.md')).toBeUndefined();
  });

  it('says what it does not understand, and keeps the rest', () => {
    const p = parsePolicy(
      JSON.stringify({
        rules: [
          { category: 'a', paths: ['[z-a]'], guidance: { watch: ['x'] } },
          { category: 'bad name!', paths: ['x'] },
          { category: 'ok', paths: ['ok/**'], severity: 3 },
        ],
        version: 2,
      }),
    );
    expect(p.problems).toEqual([
      'policy: unknown field "version"',
      expect.stringMatching(/^policy: glob "\[z-a\]"/),
      'policy rule 1: "paths" must list at least one glob',
      'policy rules[0] guidance: unknown field "watch"',
      'policy: category "bad name!" is not a name (letters, digits, . _ -)',
      'policy rules[2]: unknown field "severity"',
    ]);
    expect(p.rules.map((r) => r.category)).toEqual(['ok']);
    expect(parsePolicy('{"rules": [').problems[0]).toMatch(/^the policy is not JSON/);
  });
});

describe('reading the data files', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'corpus-input-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("never follows a symlink under the repository's .lspgate/, refuses a file over the cap, and takes an absent one for none", async () => {
    const root = path.join(dir, 'repo');
    fs.mkdirSync(path.join(root, '.lspgate'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'outside.jsonl'), '{}');
    fs.symlinkSync(path.join(dir, 'outside.jsonl'), path.join(root, '.lspgate', 'corpus.jsonl'));
    expect(await readDataFile(path.join(root, '.lspgate', 'corpus.jsonl'), { inRepository: true, root })).toEqual({
      problem: '.lspgate/corpus.jsonl is a symlink: not followed, not read',
    });
    // named by the user: theirs to point anywhere
    expect(await readDataFile(path.join(root, '.lspgate', 'corpus.jsonl'), { inRepository: false, root })).toMatchObject({ text: '{}' });
    fs.writeFileSync(path.join(root, '.lspgate', 'policy.json'), Buffer.alloc(MAX_DATA_BYTES + 1, 32));
    expect(await readDataFile(path.join(root, '.lspgate', 'policy.json'), { inRepository: true, root })).toEqual({
      problem: `.lspgate/policy.json is ${MAX_DATA_BYTES + 1} bytes, over the ${MAX_DATA_BYTES}-byte cap: not read`,
    });
    expect(await readDataFile(path.join(root, '.lspgate', 'none.json'), { inRepository: true, root })).toBeUndefined();
  });
});
