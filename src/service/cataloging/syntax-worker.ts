/**
 * Worker thread entry of the syntax pool (syntax-pool.ts): each message is a batch of files to
 * catalog from syntax; each file is read here under the gate's content rules (file-gate.ts) — or
 * taken as the bytes the gate admitted when the batch carries them — then its grammar is loaded,
 * `begin` is posted (the pool's per-file deadline starts there: what follows is the work the file's
 * content decides), and it is parsed and flattened (syntax-entry.ts) and answered on its own, entry
 * or coded error. The tree-sitter runtime and each grammar are loaded once per worker, on first use.
 */
import { parentPort } from 'node:worker_threads';

import { readGatedSync } from '../../catalog/file-gate.js';
import { toLspgateError } from '../../errors/errors.js';
import { prepareSyntax, syntaxEntry } from './syntax-entry.js';
import type { SyntaxBatch, WorkerMessage } from './syntax-pool.js';

async function one(batch: SyntaxBatch, index: number): Promise<WorkerMessage> {
  const job = batch.files[index]!;
  const { root, maxFileBytes } = batch;
  try {
    // read again under the gate's content rules: the path the walk admitted may lead elsewhere now
    const c = job.content;
    const { bytes, size, mtimeMs } = c
      ? { bytes: Buffer.from(c.bytes.buffer, c.bytes.byteOffset, c.bytes.byteLength), size: c.size, mtimeMs: c.mtimeMs }
      : readGatedSync(root, job.abs, job.rel, maxFileBytes);
    await prepareSyntax(job.rel);
    parentPort!.postMessage({ id: batch.id, begin: index } satisfies WorkerMessage);
    const entry = await syntaxEntry({ rel: job.rel, abs: job.abs, root, bytes, size, mtimeMs });
    return {
      id: batch.id,
      index,
      answer: entry ? { rel: job.rel, entry } : { rel: job.rel, error: { code: 'UNSUPPORTED_LANGUAGE', message: `no syntax declarations for ${job.rel}` } },
    };
  } catch (e) {
    const err = toLspgateError(e);
    return { id: batch.id, index, answer: { rel: job.rel, error: { code: err.code, message: err.message } } };
  }
}

parentPort?.on('message', (batch: SyntaxBatch) => {
  void (async () => {
    for (let i = 0; i < batch.files.length; i++) parentPort!.postMessage(await one(batch, i));
  })();
});
