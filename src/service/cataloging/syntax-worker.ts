/**
 * Worker thread entry of the syntax pool (syntax-pool.ts): each message is a batch of files to
 * catalog from syntax; each file is read here under the gate's content rules (file-gate.ts), parsed and flattened
 * (syntax-entry.ts) and answered on its own, entry or coded error. The tree-sitter runtime and each
 * grammar are loaded once per worker, on first use.
 */
import { parentPort } from 'node:worker_threads';
import { readGated } from '../../catalog/file-gate.js';
import { toLspgateError } from '../../errors/errors.js';
import { syntaxEntry } from './syntax-entry.js';
import type { SyntaxAnswer, SyntaxBatch } from './syntax-pool.js';

async function one(job: SyntaxBatch['files'][number], maxFileBytes: number, root: string): Promise<SyntaxAnswer> {
  try {
    // read again under the gate's content rules: the path the walk admitted may lead elsewhere now
    const { bytes, size, mtimeMs } = await readGated(root, job.abs, job.rel, maxFileBytes);
    const entry = await syntaxEntry({ rel: job.rel, abs: job.abs, root, bytes, size, mtimeMs });
    return entry ? { rel: job.rel, entry } : { rel: job.rel, error: { code: 'UNSUPPORTED_LANGUAGE', message: `no syntax declarations for ${job.rel}` } };
  } catch (e) {
    const err = toLspgateError(e);
    return { rel: job.rel, error: { code: err.code, message: err.message } };
  }
}

parentPort?.on('message', (batch: SyntaxBatch) => {
  void (async () => {
    const answers: SyntaxAnswer[] = [];
    for (const job of batch.files) answers.push(await one(job, batch.maxFileBytes, batch.root));
    parentPort!.postMessage({ id: batch.id, answers });
  })();
});
