/**
 * The bounded coverage parsers (src/analysis/reports/coverage-formats.ts): lines past their source
 * file's end are dropped and counted (a Go range is clamped to the file), the lines kept per
 * coverage file stop at the cap, paths out of the workspace are skipped, and malformed input is a
 * coded refusal or skipped lines — never work proportional to a number the file names.
 */
import { describe, expect, it } from 'vitest';

import { Collector, InvalidCoverage, parseCoveragePy, parseGoProfile, parseLcov, parseXmlCoverage } from '../../src/analysis/reports/coverage-formats.js';

const lengths: Record<string, number> = { 'a.go': 6, 'src/x.ts': 10 };
const collector = (max?: number) => new Collector('/ws', (rel) => lengths[rel], max);
const linesOf = (c: Collector, file: string) => {
  const f = c.result().files.find((x) => x.file === file);
  return f ? [...f.hits.lines].map((l, i) => `${l}:${f.hits.counts[i]}`) : [];
};

describe('bounded coverage parsers', () => {
  it('Go: a range of 20,000,000 lines is clamped to the file, and the rest is counted', () => {
    const c = collector();
    parseGoProfile('mode: set\nexample.com/x/a.go:1.1,20000000.2 1 1\nexample.com/x/a.go:4.1,5.2 1 3\n', 'example.com/x', c);
    expect(linesOf(c, 'a.go')).toEqual(['1:1', '2:1', '3:1', '4:3', '5:3', '6:1']);
    expect(c.result().clamped).toBe(20_000_000 - 6);
    expect(c.result().capped).toBe(false);
  });

  it('a file lspgate cannot read keeps its lines as given, up to the cap, then stops and says so', () => {
    const c = collector(1000);
    parseGoProfile('other.org/y/b.go:1.1,20000000.2 1 1\n', 'example.com/x', c);
    const r = c.result();
    expect(r.capped).toBe(true);
    expect(r.files[0]!.hits.lines).toHaveLength(1000);
  });

  it('lcov: lines past the end dropped, no-numbers skipped, paths out of the workspace skipped', () => {
    const c = collector();
    parseLcov('SF:src/x.ts\nDA:3,1\nDA:9,0\nDA:11,4\nDA:x,1\nDA:0,1\nend_of_record\nSF:/elsewhere/y.ts\nDA:1,1\nSF:../z.ts\nDA:1,1\n', c);
    expect(c.result().files.map((f) => f.file)).toEqual(['src/x.ts']);
    expect(linesOf(c, 'src/x.ts')).toEqual(['3:1', '9:0']);
    expect(c.result().clamped).toBe(3);
  });

  it('coverage.py JSON: not JSON or a wrong shape is InvalidCoverage', () => {
    expect(() => parseCoveragePy('{"files": ', collector())).toThrow(InvalidCoverage);
    expect(() => parseCoveragePy('{"files": {"src/x.ts": {"executed_lines": "1-3"}}}', collector())).toThrow(/not a list of line numbers/);
    const c = collector();
    parseCoveragePy('{"files": {"src/x.ts": {"executed_lines": [1, 2, 40], "missing_lines": [5]}}}', c);
    expect(linesOf(c, 'src/x.ts')).toEqual(['1:1', '2:1', '5:0']);
  });

  it('XML: Clover and Cobertura tag by tag; an unclosed run of tags costs one pass', () => {
    const c = collector();
    parseXmlCoverage(
      '<coverage><file name="x.ts" path="src/x.ts"><line num="2" type="stmt" count="3"/><line num="12" count="1"/></file><class name="A" filename="a.go"><lines><line number="1" hits="0"/></lines></class></coverage>',
      c,
    );
    expect(linesOf(c, 'src/x.ts')).toEqual(['2:3']);
    expect(linesOf(c, 'a.go')).toEqual(['1:0']);
    // 200,000 unclosed `<line` tags: each is read up to the next `>` once (a regex scanned to the end from each)
    const hostile = `<file path="src/x.ts">${'<line num="1" '.repeat(200_000)}>`;
    const h = collector();
    parseXmlCoverage(hostile, h);
    expect(h.result().files).toEqual([]);
  });
});
