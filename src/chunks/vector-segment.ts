/**
 * One segment file of the vector store (vector-store.ts): magic `LGV1`, the JSON header's length
 * (u32 LE), the header (files deleted, then records), space padding to a 4-byte boundary, and a
 * Float32 matrix of the segment's new rows. Written to a temp file and renamed, so a reader sees a
 * whole segment or none. Decoding checks the sizes and that every stored value is finite: an index
 * written from an endpoint's Infinity (before answers were validated) makes every cosine with that
 * row NaN, and its rows would be reused by their text's hash for good.
 */
import { closeSync, renameSync, writeSync } from 'node:fs';

import { createPrivateFile } from '../util/private-files.js';

export interface SegmentHeader<R> {
  dim: number;
  deleted_files: string[];
  records: R[];
  /** Per record: its row of this segment's matrix, or -1 for the vector stored under its embed_key. */
  rows: number[];
}

const MAGIC = 'LGV1';

/** Why a segment cannot be used; the store rebuilds and says so. */
export class BadSegment extends Error {
  constructor(
    readonly reason: 'damaged' | 'non_finite',
    message: string,
  ) {
    super(message);
  }
}

export function writeAtomic(file: string, parts: Buffer[]): void {
  const tmp = `${file}.${process.pid}.tmp`;
  // the cache is private: vectors are derived from the workspace's source (0600 from creation)
  const fd = createPrivateFile(tmp);
  try {
    for (const p of parts) writeSync(fd, p);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
}

export function encodeSegment<R>(header: SegmentHeader<R>, vectors: Float32Array[]): Buffer[] {
  const json = Buffer.from(JSON.stringify(header));
  const head = Buffer.alloc(8);
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(json.length, 4);
  const pad = Buffer.alloc((4 - ((8 + json.length) % 4)) % 4, 0x20);
  const matrix = Buffer.alloc(vectors.length * header.dim * 4);
  vectors.forEach((v, i) => Buffer.from(v.buffer, v.byteOffset, v.byteLength).copy(matrix, i * header.dim * 4));
  return [head, json, pad, matrix];
}

export function decodeSegment<R>(buf: Buffer, name: string): { header: SegmentHeader<R>; vectors: Float32Array[] } {
  if (buf.toString('latin1', 0, 4) !== MAGIC) throw new BadSegment('damaged', `${name} is not a vector segment`);
  const len = buf.readUInt32LE(4);
  let header: SegmentHeader<R>;
  try {
    header = JSON.parse(buf.toString('utf8', 8, 8 + len)) as SegmentHeader<R>;
  } catch {
    throw new BadSegment('damaged', `${name} has a damaged header`);
  }
  let off = 8 + len;
  off += (4 - (off % 4)) % 4;
  const rowBytes = header.dim * 4;
  const n = header.rows.filter((r) => r >= 0).length;
  if (header.rows.length !== header.records.length || buf.length - off !== n * rowBytes) throw new BadSegment('damaged', `${name} is truncated`);
  const all = new Float32Array(buf.buffer.slice(buf.byteOffset + off, buf.byteOffset + buf.length));
  const bad = all.findIndex((x) => !Number.isFinite(x));
  if (bad >= 0) throw new BadSegment('non_finite', `${name} holds a non-finite value (${all[bad]}) in row ${Math.floor(bad / header.dim)}`);
  return { header, vectors: Array.from({ length: n }, (_, i) => all.subarray(i * header.dim, (i + 1) * header.dim)) };
}
