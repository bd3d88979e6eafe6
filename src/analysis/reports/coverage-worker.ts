/**
 * Worker thread entry (util/worker-script.ts): parses one coverage file's bytes with the bounded
 * parsers of coverage-formats.ts and posts the per-file hits back as transferable arrays. Source
 * files are read here only to count their lines (for clamping), and only inside the workspace
 * root after realpath, up to maxFileBytes each.
 */
import { readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';

import { Collector, InvalidCoverage, parseCoveragePy, type ParsedCoverage, parseGoProfile, parseLcov, parseXmlCoverage } from './coverage-formats.js';

export interface CoverageJob {
  /** The coverage file's name under the root (its format follows from it). */
  name: string;
  bytes: Uint8Array;
  root: string;
  /** go.mod's module path ('' without one). */
  module: string;
  maxFileBytes: number;
}

export type CoverageAnswer = ({ ok: true } & ParsedCoverage) | { ok: false; message: string };

function lineCounter(root: string, maxFileBytes: number): (rel: string) => number | undefined {
  const realRoot = realpathSync(root);
  const known = new Map<string, number | undefined>();
  return (rel) => {
    if (known.has(rel)) return known.get(rel);
    let n: number | undefined;
    try {
      const real = realpathSync(path.join(root, rel));
      const inside = real.startsWith(realRoot.endsWith(path.sep) ? realRoot : realRoot + path.sep);
      if (inside && statSync(real).size <= maxFileBytes) {
        const buf = readFileSync(real);
        n = 0;
        for (let at = buf.indexOf(10); at >= 0; at = buf.indexOf(10, at + 1)) n++;
        if (buf.length > 0 && buf[buf.length - 1] !== 10) n++;
      }
    } catch {
      n = undefined; // gone or unreadable: its lines are kept as the coverage file gives them
    }
    known.set(rel, n);
    return n;
  };
}

function parse(job: CoverageJob): ParsedCoverage {
  const text = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength).toString('utf8');
  const c = new Collector(job.root, lineCounter(job.root, job.maxFileBytes));
  if (job.name.endsWith('.info')) parseLcov(text, c);
  else if (job.name.endsWith('.out')) parseGoProfile(text, job.module, c);
  else if (job.name.endsWith('.json')) parseCoveragePy(text, c);
  else parseXmlCoverage(text, c);
  return c.result();
}

const job = workerData as CoverageJob;
let answer: CoverageAnswer;
try {
  answer = { ok: true, ...parse(job) };
} catch (e) {
  if (!(e instanceof InvalidCoverage)) throw e;
  answer = { ok: false, message: e.message };
}
const buffers = answer.ok ? answer.files.flatMap((f) => [f.hits.lines.buffer, f.hits.counts.buffer]) : [];
parentPort!.postMessage(answer, buffers as ArrayBuffer[]);
