/**
 * The two orders of the catalog's files that search_symbols' ranking reads (search-texts.ts):
 * rankSymbols breaks ties by file in `localeCompare` order (files that compare equal share a
 * rank), and the catalog lists files in code-unit order. Both are kept as files come and go — a
 * binary insertion and a renumbering of plain integers — so that a changed file costs no re-sort
 * of every file name (3,500 `localeCompare` sorts cost tens of milliseconds).
 */
function unitCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The position of `name` in `sorted` (file ids) under `compare`: after every id that sorts before or equal. */
function insertionPoint(sorted: number[], names: readonly string[], name: string, compare: (a: string, b: string) => number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (compare(names[sorted[mid]!]!, name) <= 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class FileRanks {
  /** By file id: rank in localeCompare order (equal names share one), and in code-unit order. */
  localeRank = new Int32Array(16);
  unitRank = new Int32Array(16);
  private readonly byLocale: number[] = [];
  private readonly byUnit: number[] = [];
  /** Whether the file at each position of byLocale compares equal to the one before it. */
  private readonly tied: boolean[] = [];
  private dirty = false;

  constructor(private readonly names: readonly string[]) {}

  add(id: number): void {
    const name = this.names[id]!;
    const locale = (a: string, b: string) => a.localeCompare(b) || unitCompare(a, b);
    const at = insertionPoint(this.byLocale, this.names, name, locale);
    this.byLocale.splice(at, 0, id);
    this.tied.splice(at, 0, at > 0 && this.names[this.byLocale[at - 1]!]!.localeCompare(name) === 0);
    if (at + 1 < this.byLocale.length) this.tied[at + 1] = this.names[this.byLocale[at + 1]!]!.localeCompare(name) === 0;
    this.byUnit.splice(insertionPoint(this.byUnit, this.names, name, unitCompare), 0, id);
    this.dirty = true;
  }

  remove(id: number): void {
    const at = this.byLocale.indexOf(id);
    if (at < 0) return;
    this.byLocale.splice(at, 1);
    this.tied.splice(at, 1);
    if (at < this.byLocale.length) this.tied[at] = at > 0 && this.names[this.byLocale[at - 1]!]!.localeCompare(this.names[this.byLocale[at]!]!) === 0;
    this.byUnit.splice(this.byUnit.indexOf(id), 1);
    this.dirty = true;
  }

  /** Renumbers after changes (integers only); call before reading the ranks. */
  settle(capacity: number): void {
    if (!this.dirty && this.localeRank.length >= capacity) return;
    if (this.localeRank.length < capacity) {
      this.localeRank = new Int32Array(Math.max(capacity, this.localeRank.length * 2));
      this.unitRank = new Int32Array(this.localeRank.length);
    }
    let r = 0;
    this.byLocale.forEach((id, i) => (this.localeRank[id] = i > 0 && !this.tied[i] ? ++r : r));
    this.byUnit.forEach((id, i) => (this.unitRank[id] = i));
    this.dirty = false;
  }
}
