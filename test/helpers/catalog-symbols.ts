import type { CatalogSymbol } from '../../src/core/catalog.js';

/** A catalog symbol for tests: `qualified` names it (`Box.get`), `parent` is the qualified name of its container. */
export function catalogSymbol(
  file: string,
  language: string,
  qualified: string,
  kind: CatalogSymbol['kind'],
  line: number,
  end_line: number,
  parent?: string,
): CatalogSymbol {
  const name = qualified.split('.').pop()!;
  return {
    symbol_id: `${file}::${qualified}#${kind}`,
    file,
    name,
    qualified_name: qualified,
    kind,
    lsp_kind: 0,
    language,
    server: 's',
    signature: name,
    summary: '',
    line,
    end_line,
    selection_line: line,
    selection_column: 1,
    byte_offset: 0,
    byte_length: 0,
    content_hash: '',
    ...(parent ? { parent: `${file}::${parent}` } : {}),
  };
}
