/**
 * What an embedding endpoint answers is input from another process, read as such: its body is
 * read up to a cap derived from what was asked (a 1 GiB answer is cut off, not buffered), must be
 * JSON, must have the API's shape (OpenAI-compatible `data[{index, embedding}]` with each index
 * once, Ollama `embeddings[][]`), one vector per input of the configured dimension, every value a
 * finite number — `1e999` is valid JSON that parses to Infinity, and one such value makes every
 * cosine with that vector NaN. Each refusal names its reason, so the caller's error says what the
 * endpoint did.
 */

export type AnswerProblem = 'too_large' | 'not_json' | 'bad_shape' | 'wrong_count' | 'wrong_dim' | 'non_finite';

export class BadAnswer extends Error {
  constructor(
    readonly reason: AnswerProblem,
    message: string,
  ) {
    super(message);
  }
}

/** Room for the JSON of `inputs × dim` numbers (a float prints in at most ~24 characters) plus 1 MiB for the rest. */
export function answerByteCap(inputs: number, dim: number): number {
  return 1024 * 1024 + inputs * dim * 48;
}

/**
 * The body's bytes, at most `cap`: past it the stream is cancelled (the endpoint stops sending once
 * the connection closes) and the answer is refused. An abort of the request's signal surfaces from
 * the read as the stream's error, for the caller to tell apart.
 */
export async function readCapped(body: ReadableStream<Uint8Array> | null, cap: number): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const parts: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > cap) {
      await reader.cancel().catch(() => undefined);
      throw new BadAnswer('too_large', `answer over its limit of ${cap} bytes; not read further`);
    }
    parts.push(value);
  }
  return Buffer.concat(parts, size);
}

function vectorOf(v: unknown, i: number, dim: number): Float32Array {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'number')) throw new BadAnswer('bad_shape', `vector ${i} is not a list of numbers`);
  if (v.length !== dim) throw new BadAnswer('wrong_dim', `answered ${v.length}-dimensional vectors, configured dim is ${dim}`);
  const bad = (v as number[]).findIndex((x) => !Number.isFinite(x));
  if (bad >= 0) throw new BadAnswer('non_finite', `answered a non-finite value (${String(v[bad])}) at ${i}[${bad}]`);
  const out = Float32Array.from(v as number[]);
  // a finite double beyond float32's range becomes Infinity in the Float32Array
  if (!out.every(Number.isFinite)) throw new BadAnswer('non_finite', `answered a value beyond 32-bit float range in vector ${i}`);
  return out;
}

/** OpenAI-compatible `data`: objects with an integer `index` in [0, n), each index once. */
function openAiVectors(body: Record<string, unknown>, n: number): unknown[] {
  const data = body.data;
  if (!Array.isArray(data)) throw new BadAnswer('bad_shape', 'answer has no data list');
  if (data.length !== n) throw new BadAnswer('wrong_count', `answered ${data.length} vectors for ${n} inputs`);
  const out: unknown[] = new Array<unknown>(n);
  for (const d of data as { index?: unknown; embedding?: unknown }[]) {
    const i = d?.index;
    if (typeof i !== 'number' || !Number.isInteger(i) || i < 0 || i >= n || out[i] !== undefined)
      throw new BadAnswer('bad_shape', `answered index ${String(i)} for ${n} inputs (each of 0..${n - 1} once)`);
    out[i] = d.embedding;
  }
  return out;
}

/** The answer's vectors, in input order, or a BadAnswer naming what is wrong. */
export function parseEmbeddings(raw: Buffer, api: 'openai' | 'ollama', n: number, dim: number): Float32Array[] {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new BadAnswer('not_json', `answered a body that is not JSON (${raw.length} bytes)`);
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new BadAnswer('bad_shape', 'answer is not a JSON object');
  const obj = body as Record<string, unknown>;
  let list: unknown[];
  if (api === 'openai') list = openAiVectors(obj, n);
  else {
    if (!Array.isArray(obj.embeddings)) throw new BadAnswer('bad_shape', 'answer has no embeddings list');
    list = obj.embeddings;
    if (list.length !== n) throw new BadAnswer('wrong_count', `answered ${list.length} vectors for ${n} inputs`);
  }
  return list.map((v, i) => vectorOf(v, i, dim));
}

/** True when every value of every vector is a finite number (what the store may keep). */
export function allFinite(vectors: readonly Float32Array[]): boolean {
  return vectors.every((v) => v.every(Number.isFinite));
}
