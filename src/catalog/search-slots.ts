/**
 * The storage under search_symbols' ranking (search-texts.ts), kept up to date file by file: each
 * catalog symbol has a slot holding its five searched texts lower-cased with their character sets,
 * its name's hashes, kind weight, name length, line, file and place in its file. A changed file
 * frees its slots and appends new ones; its grams go to a small index beside the gram index built
 * for the whole catalog (gram-index.ts), and its file to the file orders (file-ranks.ts). Freed
 * slots are never reused: when they (or the appended grams) grow past a quarter of the live slots,
 * the owner rebuilds from scratch, a cost paid once per many edits instead of on every search
 * after any edit (200–450 ms of CPU on 24–35k symbols).
 */
import type { CatalogSymbol } from '../core/catalog.js';
import { FileRanks } from './file-ranks.js';
import { eachGramOf, GramIndex } from './gram-index.js';
import { KIND_WEIGHT, maskOf, textHash } from './symbol-search.js';

/** Texts of a symbol in `lower` (FIELDS per slot): name, qualified name, signature, summary, docstring. */
export const FIELDS = 5;

function grown<T extends Int32Array | Int8Array | Uint8Array>(a: T, n: number, make: (n: number) => T): T {
  if (a.length >= n) return a;
  const b = make(Math.max(n, a.length * 2, 64));
  b.set(a);
  return b;
}

export class SearchSlots {
  /** By slot: the symbol, undefined once its file changed (slots are not reused). */
  readonly symbols: (CatalogSymbol | undefined)[] = [];
  protected readonly lower: string[] = [];
  protected masks = new Int32Array(0);
  protected nameHashes = new Int32Array(0);
  protected qualifiedHashes = new Int32Array(0);
  protected kindWeight = new Int8Array(0);
  protected nameLength = new Int32Array(0);
  protected line = new Int32Array(0);
  protected fileOf = new Int32Array(0);
  protected posInFile = new Int32Array(0);
  protected alive = new Uint8Array(0);
  protected live = 0;
  /** Files by id: name, slots now, and the symbol list they were made from. */
  protected readonly fileIds = new Map<string, number>();
  protected readonly fileNames: string[] = [];
  private readonly fileSlots: number[][] = [];
  private readonly fileLists: (readonly CatalogSymbol[] | undefined)[] = [];
  protected readonly ranks = new FileRanks(this.fileNames);
  /** The fuzzy pass's view: distinct lower-cased names, their character sets, and their slots. */
  protected readonly nameIds = new Map<string, number>();
  protected readonly nameText: string[] = [];
  protected nameMasks = new Int32Array(0);
  protected readonly bearers: number[][] = [];
  protected nameOf = new Int32Array(0);
  /** The gram index over the slots below `baseSlots`, and the grams of the slots appended since. */
  private base: GramIndex | undefined;
  private baseSlots = 0;
  private readonly delta = new Map<number, number[]>();
  /** Bumped whenever slots change (per-query caches keyed on it). */
  protected generation = 0;

  /** The slots of `symbols` (in the catalog's order within the file: byte offset), replacing the file's. */
  protected setFile(file: string, symbols: readonly CatalogSymbol[]): void {
    const id = this.fileId(file);
    if (this.fileLists[id] === symbols) return;
    this.dropSlots(id);
    this.fileLists[id] = symbols;
    const ordered = [...symbols].sort((a, b) => a.byte_offset - b.byte_offset);
    if (ordered.length) this.ranks.add(id);
    const slots = ordered.map((s, pos) => this.appendSlot(s, id, pos));
    this.fileSlots[id] = slots;
    this.generation++;
  }

  protected removeFile(file: string): void {
    const id = this.fileIds.get(file);
    if (id === undefined || !this.fileLists[id]) return;
    this.dropSlots(id);
    this.fileLists[id] = undefined;
    this.generation++;
  }

  /** The symbol list the file's slots were made from (undefined: none). */
  protected listOf(file: string): readonly CatalogSymbol[] | undefined {
    const id = this.fileIds.get(file);
    return id === undefined ? undefined : this.fileLists[id];
  }

  protected filesNow(): IterableIterator<string> {
    return this.fileIds.keys();
  }

  /** Freed and appended slots weigh more than a quarter of the live ones: a rebuild is due. */
  get worn(): boolean {
    const churn = this.symbols.length - this.baseSlots + (this.baseSlots - this.liveBelowBase());
    return churn > Math.max(2000, this.live / 4);
  }

  private liveBelowBase(): number {
    let n = 0;
    for (let i = 0; i < this.baseSlots; i++) n += this.alive[i]!;
    return n;
  }

  /** Builds the gram index over every slot so far (a fresh start; later slots go to the delta). */
  protected indexAll(): void {
    this.base = new GramIndex(this.lower, FIELDS);
    this.baseSlots = this.symbols.length;
    this.delta.clear();
  }

  /**
   * The live slots that may hold `word` (ascending; a superset of those that do), or undefined for
   * a word shorter than two code units (every slot may).
   */
  protected candidates(word: string): Int32Array | undefined {
    const fromBase = this.base?.candidates(word);
    if (word.length < 2) return undefined;
    const out: number[] = [];
    if (fromBase) for (const i of fromBase) if (this.alive[i]) out.push(i);
    let inDelta: number[] | undefined;
    for (const b of new Set(gramsOf(word))) {
      const list = this.delta.get(b) ?? [];
      inDelta = inDelta ? intersect(inDelta, list) : list;
      if (inDelta.length === 0) break;
    }
    for (const i of inDelta ?? []) if (this.alive[i]) out.push(i);
    return Int32Array.from(out);
  }

  private fileId(file: string): number {
    let id = this.fileIds.get(file);
    if (id === undefined) {
      id = this.fileNames.push(file) - 1;
      this.fileIds.set(file, id);
      this.fileSlots.push([]);
      this.fileLists.push(undefined);
    }
    return id;
  }

  private dropSlots(id: number): void {
    for (const slot of this.fileSlots[id] ?? []) {
      this.alive[slot] = 0;
      this.symbols[slot] = undefined;
      this.live--;
    }
    if (this.fileSlots[id]?.length) this.ranks.remove(id);
    this.fileSlots[id] = [];
  }

  private appendSlot(s: CatalogSymbol, file: number, pos: number): number {
    const i = this.symbols.length;
    const n = i + 1;
    this.masks = grown(this.masks, n * FIELDS, (k) => new Int32Array(k));
    for (const name of ['nameHashes', 'qualifiedHashes', 'nameLength', 'line', 'fileOf', 'posInFile', 'nameOf'] as const)
      this[name] = grown(this[name], n, (k) => new Int32Array(k));
    this.kindWeight = grown(this.kindWeight, n, (k) => new Int8Array(k));
    this.alive = grown(this.alive, n, (k) => new Uint8Array(k));
    this.symbols.push(s);
    const name = s.name.toLowerCase();
    const qn = s.qualified_name === s.name ? name : s.qualified_name.toLowerCase();
    const sig = s.signature.toLowerCase();
    // A summary is often the signature, a docstring the summary: one string for both.
    const sum = s.summary === s.signature ? sig : s.summary.toLowerCase();
    const doc = !s.docstring ? '' : s.docstring === s.summary ? sum : s.docstring.toLowerCase();
    const texts = [name, qn, sig, sum, doc];
    for (let f = 0; f < FIELDS; f++) {
      this.lower.push(texts[f]!);
      this.masks[i * FIELDS + f] = maskOf(texts[f]!);
    }
    this.nameHashes[i] = textHash(name);
    this.qualifiedHashes[i] = textHash(qn);
    this.kindWeight[i] = KIND_WEIGHT[s.kind] ?? 0;
    this.nameLength[i] = s.name.length;
    this.line[i] = s.line;
    this.fileOf[i] = file;
    this.posInFile[i] = pos;
    this.alive[i] = 1;
    this.live++;
    this.nameOf[i] = this.nameId(name, i);
    if (this.base) this.indexGrams(i, texts);
    return i;
  }

  private nameId(name: string, slot: number): number {
    let u = this.nameIds.get(name);
    if (u === undefined) {
      u = this.nameText.push(name) - 1;
      this.nameIds.set(name, u);
      this.nameMasks = grown(this.nameMasks, u + 1, (k) => new Int32Array(k));
      this.nameMasks[u] = maskOf(name);
      this.bearers.push([]);
    }
    this.bearers[u]!.push(slot);
    return u;
  }

  /** The grams of a slot appended after the base index was built: each bucket's list stays ascending. */
  private indexGrams(slot: number, texts: string[]): void {
    const buckets = new Set<number>();
    texts.forEach((t, f) => {
      if (f === 0 || t !== texts[f - 1]) for (const b of gramsOf(t)) buckets.add(b);
    });
    for (const b of buckets) {
      const list = this.delta.get(b);
      if (list) list.push(slot);
      else this.delta.set(b, [slot]);
    }
  }
}

function gramsOf(text: string): number[] {
  const out: number[] = [];
  eachGramOf(text, (b) => out.push(b));
  return out;
}

function intersect(a: number[], b: number[]): number[] {
  const out: number[] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i]! < b[j]!) i++;
    else if (a[i]! > b[j]!) j++;
    else {
      out.push(a[i]!);
      i++;
      j++;
    }
  }
  return out;
}
