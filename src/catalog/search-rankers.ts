/**
 * search_symbols' ranker for one catalog: from the workspace database (db-symbol-search.ts) once it
 * holds every change of the index — the keeper writes its pending files first — and nothing per
 * symbol in the heap; the texts in the heap (search-texts.ts), kept in step file by file, only while
 * the database cannot be written (a failing disk: the keeper says why in the log and the answer).
 */
import type { SymbolRanker } from '../core/catalog.js';
import type { CatalogKeeper } from './catalog-keeper.js';
import { DbSymbolSearch } from './db-symbol-search.js';
import { SearchTexts } from './search-texts.js';
import type { SymbolIndex } from './symbol-index.js';

export class SearchRankers {
  private texts: SearchTexts | undefined;
  private fromDb: DbSymbolSearch | undefined;

  constructor(
    private readonly index: SymbolIndex,
    private readonly keeper: CatalogKeeper,
  ) {}

  /** The ranker for the catalog as it is now. */
  now(): SymbolRanker {
    const reader = this.keeper.searchReader();
    if (reader) {
      // the matches' symbols are the index's entries, at the rows' places in them
      if (this.fromDb?.reader !== reader) this.fromDb = new DbSymbolSearch(reader, (rel, ord) => this.index.files.get(rel)?.symbols[ord]);
      this.texts = undefined;
      return this.fromDb.refresh();
    }
    this.texts = this.texts ? this.texts.sync(this.index) : SearchTexts.of(this.index);
    return this.texts;
  }
}
