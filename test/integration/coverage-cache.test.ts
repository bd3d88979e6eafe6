/**
 * Coverage files are parsed off the event loop and their outcomes — failures included — cached by
 * content: a coverage.json that is not JSON is parsed once, answered from the cache while it stays
 * the same (a rewrite with the same bytes included), and parsed again once it changes; one over
 * maxCoverageBytes is never read and is reported in `_meta.limits_hit`. A workspace with no source
 * file, so no language server is involved.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { coverageParses } from '../../src/analysis/reports/coverage.js';
import { Gateway } from '../../src/gateway/gateway.js';
import { type FixtureGateway, fixtureGateway } from '../helpers/gateway.js';

describe('coverage outcomes cached by content', () => {
  let tmp: string;
  let root: string;
  let fx: FixtureGateway;
  const parses = () => coverageParses(fx.gateway.workspaces()[0]!.catalog);
  const write = (rel: string, text: string) => fs.writeFileSync(path.join(root, rel), text);

  beforeAll(async () => {
    tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'lspgate-cov-cache-')));
    root = path.join(tmp, 'ws');
    fs.mkdirSync(root);
    write('README.md', '# nothing to catalog\n');
    write('coverage.json', '{"files": {"x.py": ');
    fx = fixtureGateway(await Gateway.create({ root, cacheDir: path.join(tmp, 'cache'), limits: { maxCoverageBytes: 4096 } }), root, path.join(tmp, 'cache'));
  });

  afterAll(async () => {
    await fx.gateway.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('a file that is not valid coverage: a warning and reference coverage, parsed once', async () => {
    const r = await fx.run('coverage_report');
    expect(r.mode).toBe('reference');
    expect(r.basis).toContain('no usable coverage file');
    expect(r._meta.warnings.join('\n')).toContain('coverage.json is not valid coverage data: not JSON');
    expect(parses()).toBe(1);
    await fx.run('coverage_report');
    expect(parses()).toBe(1);
    // the same bytes written again (a new mtime): still the cached failure
    write('coverage.json', '{"files": {"x.py": ');
    await fx.run('coverage_report');
    expect(parses()).toBe(1);
  });

  it('once the content changes it is parsed again', async () => {
    write('coverage.json', JSON.stringify({ files: { 'x.py': { executed_lines: [1, 2], missing_lines: [3] } } }));
    const r = await fx.run('coverage_report', { format: 'detailed' });
    expect(r.mode).toBe('line');
    expect(r.files).toEqual([{ file: 'x.py', coverage: 0.667, covered: 2, total: 3, uncovered_lines: [{ start: 3, end: 3 }] }]);
    expect(parses()).toBe(2);
  });

  it('a file over maxCoverageBytes is not read: limits_hit says so', async () => {
    write('coverage.json', JSON.stringify({ files: { 'x.py': { executed_lines: Array.from({ length: 2000 }, (_, i) => i + 1) } } }));
    const r = await fx.run('coverage_report');
    expect(r.mode).toBe('reference');
    expect(r._meta.limits_hit).toContainEqual(expect.objectContaining({ limit: 'maxCoverageBytes', value: 4096 }));
    expect(parses()).toBe(2);
  });
});
