/**
 * A substring pre-filter over many small documents (search_symbols: one per catalog symbol, its
 * lower-cased name, qualified name, signature, summary and docstring). Every distinct 2- and
 * 3-code-unit gram of a document's texts is hashed into one of 2^BITS buckets; a bucket is the
 * ascending list of the documents holding one of its grams, delta-coded as varints in one byte
 * array. A word of two or more code units can only occur in a document that is in the bucket of
 * each of its grams, so intersecting those lists gives a superset of the documents holding the
 * word (a hash collision only adds documents), which the caller verifies.
 *
 * Why hand-written: the answers must stay exactly those of the plain substring ranking, so the
 * structure only has to narrow the scan, never decide a match; the search libraries at hand
 * (token or fuzzy indexes) answer a different question. Size: ~1.2 bytes per (document, distinct
 * gram) — 3 M pairs, ~4 MB, for a 24k-symbol catalog — plus 1 MB of bucket offsets; built once
 * per catalog version, on its first search.
 */
const BITS = 18;
const BUCKETS = 1 << BITS;
/** Stands for "no third code unit" in a bigram's hash (code units are below 0x10000). */
const NONE = 0x10000;

function bucketOf(a: number, b: number, c: number): number {
  const h = Math.imul(a ^ 0x5bd1e995, 0x9e3779b1) ^ Math.imul(b + 0x7f4a7c15, 0x85ebca77) ^ Math.imul(c + 0x165667b1, 0xc2b2ae3d);
  return Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> (32 - BITS);
}

function varintBytes(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

/** Calls `visit(bucket)` for each 2- and 3-gram of `text` (duplicates included). */
function eachGram(text: string, visit: (bucket: number) => void): void {
  const n = text.length;
  if (n < 2) return;
  let a = text.charCodeAt(0);
  let b = text.charCodeAt(1);
  visit(bucketOf(a, b, NONE));
  for (let i = 2; i < n; i++) {
    const c = text.charCodeAt(i);
    visit(bucketOf(b, c, NONE));
    visit(bucketOf(a, b, c));
    a = b;
    b = c;
  }
}

/** The bucket of each 2- and 3-gram of `text` (duplicates included): what a word's candidates intersect. */
export function eachGramOf(text: string, visit: (bucket: number) => void): void {
  eachGram(text, visit);
}

export class GramIndex {
  /** offsets[b] .. offsets[b + 1]: bucket b's bytes. */
  private readonly offsets = new Uint32Array(BUCKETS + 1);
  private readonly bytes: Uint8Array;

  /** `texts`: `per` texts for each document, in document order (a gram never spans two texts). */
  constructor(texts: readonly string[], per: number) {
    const documents = Math.floor(texts.length / per);
    const last = new Int32Array(BUCKETS).fill(-1);
    const size = new Uint32Array(BUCKETS);
    let doc = 0;
    const count = (b: number) => {
      if (last[b] === doc) return;
      size[b]! += varintBytes(doc - last[b]!);
      last[b] = doc;
    };
    const each = (visit: (b: number) => void) => {
      for (doc = 0; doc < documents; doc++) {
        // A document's texts are often the same string twice (a summary that is the signature).
        for (let j = doc * per; j < doc * per + per; j++) if (j === doc * per || texts[j] !== texts[j - 1]) eachGram(texts[j]!, visit);
      }
    };
    each(count);
    for (let b = 0; b < BUCKETS; b++) this.offsets[b + 1] = this.offsets[b]! + size[b]!;
    this.bytes = new Uint8Array(this.offsets[BUCKETS]!);
    const at = this.offsets.slice(0, BUCKETS);
    last.fill(-1);
    const bytes = this.bytes;
    each((b) => {
      if (last[b] === doc) return;
      let d = doc - last[b]!;
      last[b] = doc;
      let p = at[b]!;
      while (d >= 0x80) {
        bytes[p++] = (d & 0x7f) | 0x80;
        d >>>= 7;
      }
      bytes[p++] = d;
      at[b] = p;
    });
  }

  /** Bytes the index holds (its size in memory, less the object headers). */
  get byteSize(): number {
    return this.bytes.byteLength + this.offsets.byteLength;
  }

  /**
   * The documents that may hold `word` (ascending; a superset of those that do), or undefined for
   * a word shorter than two code units (every document may).
   */
  candidates(word: string): Int32Array | undefined {
    if (word.length < 2) return undefined;
    const buckets = new Set<number>();
    eachGram(word, (b) => buckets.add(b));
    // Rarest buckets first; a few intersections leave few false candidates for the caller to
    // verify. A bucket much longer than the candidates left costs more to decode than verifying
    // the few it would drop.
    const order = [...buckets].sort((x, y) => this.length(x) - this.length(y));
    let docs = this.decode(order[0]!);
    for (let i = 1; i < order.length && i < 6 && docs.length > 16 && this.length(order[i]!) <= docs.length * 16; i++) docs = this.intersect(docs, order[i]!);
    return docs;
  }

  private length(b: number): number {
    return this.offsets[b + 1]! - this.offsets[b]!;
  }

  private decode(b: number): Int32Array {
    const out = new Int32Array(this.length(b));
    let n = 0;
    this.eachDoc(b, (doc) => {
      out[n++] = doc;
      return true;
    });
    return out.subarray(0, n);
  }

  /** The documents of `docs` that are in bucket b too (both ascending). */
  private intersect(docs: Int32Array, b: number): Int32Array {
    const out = new Int32Array(docs.length);
    let n = 0;
    let i = 0;
    this.eachDoc(b, (doc) => {
      while (i < docs.length && docs[i]! < doc) i++;
      if (docs[i] === doc) out[n++] = docs[i++]!;
      return i < docs.length;
    });
    return out.subarray(0, n);
  }

  /** Visits bucket b's documents in ascending order (its delta varints decoded) until visit says stop. */
  private eachDoc(b: number, visit: (doc: number) => boolean): void {
    const bytes = this.bytes;
    const end = this.offsets[b + 1]!;
    let doc = -1;
    for (let p = this.offsets[b]!; p < end;) {
      let d = 0;
      let shift = 0;
      let x: number;
      do {
        x = bytes[p++]!;
        d += (x & 0x7f) * 2 ** shift;
        shift += 7;
      } while (x & 0x80);
      doc += d;
      if (!visit(doc)) return;
    }
  }
}
