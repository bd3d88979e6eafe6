/**
 * An Embedder over HTTP: OpenAI-compatible `POST {url}/v1/embeddings` or Ollama `POST {url}/api/embed`
 * (both take {model, input: string[]}). Inputs go in batches; a network error, 429 or 5xx is retried
 * with exponential backoff; every request has a timeout; the answer's dimension is checked against
 * the configured one (vectors of another size would be compared meaninglessly). Failures are
 * coded: SERVER_FAILED (endpoint down or answering errors), TIMEOUT, CANCELLED.
 */
import { LspgateError } from '../errors/errors.js';
import type { Embedder, EmbeddingIdentity } from './embedder.js';

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

  private fail(message: string, retryable: boolean, cause?: unknown): LspgateError {
    return new LspgateError('SERVER_FAILED', `embedding endpoint ${this.endpoint}: ${message}`, { embedder: this.endpoint, retryable }, { cause });
  }

  private async request(inputs: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 30_000);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.opts.apiKey) headers.authorization = `Bearer ${this.opts.apiKey}`;
    let res: Response;
    try {
      res = await fetch(this.endpoint, { method: 'POST', headers, body: JSON.stringify({ model: this.opts.model, input: inputs }), signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (e) {
      if (signal?.aborted) throw new LspgateError('CANCELLED', 'embedding request cancelled');
      if (timeout.aborted) throw new LspgateError('TIMEOUT', `embedding endpoint ${this.endpoint} did not answer within ${this.opts.timeoutMs ?? 30_000} ms`, { embedder: this.endpoint });
      throw this.fail(`unreachable (${(e as Error & { cause?: { code?: string } }).cause?.code ?? (e as Error).message})`, true, e);
    }
    if (!res.ok) throw this.fail(`HTTP ${res.status} ${(await res.text()).slice(0, 200)}`, RETRY_STATUS(res.status));
    const body = (await res.json()) as { data?: { index: number; embedding: number[] }[]; embeddings?: number[][] };
    const vectors = this.opts.api === 'openai' ? [...(body.data ?? [])].sort((a, b) => a.index - b.index).map((d) => d.embedding) : (body.embeddings ?? []);
    if (vectors.length !== inputs.length) throw this.fail(`answered ${vectors.length} vectors for ${inputs.length} inputs`, false);
    const wrong = vectors.find((v) => v.length !== this.opts.dim);
    if (wrong) throw this.fail(`answered ${wrong.length}-dimensional vectors, configured dim is ${this.opts.dim}`, false);
    return vectors.map((v) => Float32Array.from(v));
  }
}
