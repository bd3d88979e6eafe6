/**
 * Where a long function is cut: between the statements of its body as its parse tree has them
 * (file-structure.ts `functionBodies`), so each piece holds whole statements — a piece's text is real
 * code and its citation exact — and a compound statement (`if … else`, `try … except`) is never cut
 * inside. Pieces are at most MAX_PIECE lines where the statements allow it.
 */
export const SPLIT_ABOVE_LINES = 60;
const MIN_PIECE = 12;
const MAX_PIECE = 50;

/** The [start, end] pieces of a long range, cut at boundaries; one piece when it need not or cannot be cut. */
export function splitRange(start: number, end: number, boundaries: readonly number[]): [number, number][] {
  if (end - start + 1 <= SPLIT_ABOVE_LINES) return [[start, end]];
  const pieces: [number, number][] = [];
  let pieceStart = start;
  let last = -1;
  for (const b of boundaries) {
    if (b <= pieceStart || b > end) continue;
    if (b - pieceStart > MAX_PIECE && last - pieceStart >= MIN_PIECE) {
      pieces.push([pieceStart, last - 1]);
      pieceStart = last;
    }
    last = b;
  }
  if (end - pieceStart + 1 > MAX_PIECE && last - pieceStart >= MIN_PIECE && end - last + 1 >= MIN_PIECE / 2) {
    pieces.push([pieceStart, last - 1]);
    pieceStart = last;
  }
  pieces.push([pieceStart, end]);
  return pieces;
}
