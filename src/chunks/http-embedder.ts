/**
 * An Embedder over HTTP: OpenAI-compatible `POST {url}/v1/embeddings` or Ollama `POST {url}/api/embed`
 * (both take {model, input: string[]}). Inputs go in batches; a network error, 429 or 5xx is retried
 * with exponential backoff; every request has a deadline for the whole exchange; the answer is read
 * up to a byte cap and validated (embedding-answer.ts: JSON, shape, count, dimension, finite values).
 * Failures are coded: SERVER_FAILED (endpoint down, answering errors or a bad answer; `details.reason`
 * says which), TIMEOUT, CANCELLED — so a hybrid search can fall back to BM25 on any of them.
 */
import { LspgateError } from '../errors/errors.js';
import type { Embedder, EmbeddingIdentity } from './embedder.js';
import { answerByteCap, BadAnswer, parseEmbeddings, readCapped } from './embedding-answer.js';

export interface HttpEmbedderOptions {
  url: string;
  api: 'openai' | 'ollama';
  model: string;
  dim: number;
  apiKey?: string | undefined;
  batchSize?: number;
  timeoutMs?: number;
  retries?: number;
  backoffMs?: number;
}

const RETRY_STATUS = (s: number) => s === 429 || s >= 500;
/** An error answer is read this far (its first 200 characters are quoted). */
const ERROR_BODY_BYTES = 64 * 1024;

export class HttpEmbedder implements Embedder {
  readonly maxInputTokens = 8192;
  private readonly endpoint: string;

  constructor(private readonly opts: HttpEmbedderOptions) {
    this.endpoint = opts.url.replace(/\/+$/, '') + (opts.api === 'openai' ? '/v1/embeddings' : '/api/embed');
  }

  identity(): EmbeddingIdentity {
    return { provider: this.opts.api === 'openai' ? 'openai-compatible' : 'ollama', model: this.opts.model, dim: this.opts.dim, pooling: '', normalize: '' };
  }

  async embed(batch: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const size = this.opts.batchSize ?? 32;
    const out: Float32Array[] = [];
    for (let i = 0; i < batch.length; i += size) out.push(...(await this.withRetries(batch.slice(i, i + size), signal)));
    return out;
  }

  private async withRetries(inputs: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const retries = this.opts.retries ?? 2;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.request(inputs, signal);
      } catch (e) {
        const retryable = e instanceof LspgateError && e.details?.retryable === true;
        if (!retryable || attempt >= retries || signal?.aborted) throw e;
        await new Promise((r) => setTimeout(r, (this.opts.backoffMs ?? 200) * 2 ** attempt));
      }
    }
  }

  private fail(message: string, retryable: boolean, reason: string, cause?: unknown): LspgateError {
    return new LspgateError('SERVER_FAILED', `embedding endpoint ${this.endpoint}: ${message}`, { embedder: this.endpoint, retryable, reason }, { cause });
  }

  /**
   * One request, from connect to the answer's last byte, within `timeoutMs`: a server that sends
   * its headers and then drips the body is as slow as one that never answers.
   */
  private async request(inputs: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const ms = this.opts.timeoutMs ?? 30_000;
    const timeout = AbortSignal.timeout(ms);
    const both = signal ? AbortSignal.any([signal, timeout]) : timeout;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`;
    const stopped = (e: unknown): LspgateError => {
      if (signal?.aborted) return new LspgateError('CANCELLED', 'embedding request cancelled');
      if (timeout.aborted)
        return new LspgateError('TIMEOUT', `embedding endpoint ${this.endpoint} did not answer within ${ms} ms (the whole answer, body included)`, {
          embedder: this.endpoint,
          timeoutMs: ms,
        });
      if (e instanceof BadAnswer) return this.fail(e.message, false, e.reason);
      return this.fail(`connection failed while reading the answer (${(e as Error).message})`, true, 'connection', e);
    };
    let res: Response;
    try {
      res = await fetch(this.endpoint, { method: 'POST', headers, body: JSON.stringify({ model: this.opts.model, input: inputs }), signal: both });
    } catch (e) {
      if (signal?.aborted || timeout.aborted) throw stopped(e);
      throw this.fail(`unreachable (${(e as Error & { cause?: { code?: string } }).cause?.code ?? (e as Error).message})`, true, 'unreachable', e);
    }
    let raw: Buffer;
    try {
      raw = await readCapped(res.body, res.ok ? answerByteCap(inputs.length, this.opts.dim) : ERROR_BODY_BYTES);
    } catch (e) {
      throw res.ok || !(e instanceof BadAnswer)
        ? stopped(e)
        : this.fail(`HTTP ${res.status} (a body over ${ERROR_BODY_BYTES} bytes)`, RETRY_STATUS(res.status), 'http_status');
    }
    if (!res.ok) throw this.fail(`HTTP ${res.status} ${raw.toString('utf8').slice(0, 200)}`, RETRY_STATUS(res.status), 'http_status');
    try {
      return parseEmbeddings(raw, this.opts.api, inputs.length, this.opts.dim);
    } catch (e) {
      throw stopped(e);
    }
  }
}
