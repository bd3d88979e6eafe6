/**
 * Worker thread entry of the syntax job pool (job-pool.ts): each message is one job. The job's
 * module is imported (once per worker; the path comes from lspgate's own code, never from a caller)
 * and its grammar loaded, then `begin` is posted — the pool's deadline starts there — and the named
 * function is called with the job's arguments. Its answer, or its error as a code and message, is
 * posted back.
 */
import { type MessagePort, parentPort, workerData } from 'node:worker_threads';

import { toLspgateError } from '../errors/errors.js';
import { fileUri } from '../util/uri.js';
import type { JobMessage, SyntaxJob } from './job-pool.js';
import { loadGrammar } from './runtime.js';

/** Answers go out on the pool's own port, which it can drain synchronously when a deadline fires. */
const answers = (workerData as { port: MessagePort }).port;

type JobModule = Record<string, ((...args: unknown[]) => Promise<unknown>) | undefined>;

async function one(id: number, job: SyntaxJob): Promise<JobMessage> {
  try {
    const mod = (await import(fileUri(job.module))) as JobModule;
    const fn = mod[job.fn];
    if (typeof fn !== 'function') throw new Error(`${job.module} exports no function ${job.fn}`);
    if (job.grammar) await loadGrammar(job.grammar);
    if (job.prepare) await mod[job.prepare]?.(...job.args);
    answers.postMessage({ id, begin: true } satisfies JobMessage);
    return { id, result: await fn(...job.args) };
  } catch (e) {
    const err = toLspgateError(e);
    return { id, error: { code: err.code, message: err.message, ...(err.details ? { details: err.details } : {}) } };
  }
}

parentPort?.on('message', (m: { id: number; job: SyntaxJob }) => {
  void one(m.id, m.job).then((answer) => {
    try {
      answers.postMessage(answer);
    } catch (e) {
      // an answer that cannot be cloned is a defect of the job's function (it returned more than plain data)
      answers.postMessage({
        id: m.id,
        error: { code: 'INTERNAL', message: `${m.job.fn} answered what cannot leave its worker: ${(e as Error).message}` },
      } satisfies JobMessage);
    }
  });
});
