/**
 * Which embedder search_code uses: an HTTP endpoint when `LSPGATE_EMBED_URL` is set (with
 * `LSPGATE_EMBED_API` openai | ollama, `LSPGATE_EMBED_MODEL`, `LSPGATE_EMBED_DIM`, the key in
 * `LSPGATE_EMBED_KEY`, and `LSPGATE_EMBED_TIMEOUT_MS` for each request's deadline), else none — the model-free local embedder then serves explicit vector and
 * hybrid requests. Read per call so a daemon picks up a changed environment; the instance is kept
 * while the settings stay the same, so its vectors are kept too.
 */
import type { Embedder } from '../../chunks/embedder.js';
import { HttpEmbedder } from '../../chunks/http-embedder.js';
import { LspgateError } from '../../errors/errors.js';

let cached: { key: string; embedder: Embedder } | undefined;

export function configuredEmbedder(env: NodeJS.ProcessEnv = process.env): Embedder | undefined {
  const url = env.LSPGATE_EMBED_URL;
  if (!url) return undefined;
  const api = env.LSPGATE_EMBED_API ?? 'openai';
  const model = env.LSPGATE_EMBED_MODEL ?? '';
  const dim = Number(env.LSPGATE_EMBED_DIM);
  if (api !== 'openai' && api !== 'ollama') throw new LspgateError('INVALID_INPUT', `LSPGATE_EMBED_API must be openai or ollama, not ${api}`);
  if (!model || !Number.isInteger(dim) || dim <= 0)
    throw new LspgateError('INVALID_INPUT', 'LSPGATE_EMBED_URL needs LSPGATE_EMBED_MODEL and a positive integer LSPGATE_EMBED_DIM');
  const timeoutMs = env.LSPGATE_EMBED_TIMEOUT_MS === undefined ? 30_000 : Number(env.LSPGATE_EMBED_TIMEOUT_MS);
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
    throw new LspgateError('INVALID_INPUT', `LSPGATE_EMBED_TIMEOUT_MS must be a positive integer (ms), not ${env.LSPGATE_EMBED_TIMEOUT_MS}`);
  const key = JSON.stringify([url, api, model, dim, env.LSPGATE_EMBED_KEY ?? '', timeoutMs]);
  if (cached?.key !== key) cached = { key, embedder: new HttpEmbedder({ url, api, model, dim, apiKey: env.LSPGATE_EMBED_KEY, timeoutMs }) };
  return cached.embedder;
}
