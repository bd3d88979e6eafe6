/**
 * The hash a symbol edit's preview answers as `edit_hash` and an apply takes as `expected_hash`: it
 * binds the file's bytes and the edit itself (operation, symbol id, the given text and options, the
 * new file), so an apply whose file or edit is not the previewed one is refused (CONTENT_MODIFIED),
 * and previews of two different bodies never share a hash. `content_hash` stays the file's bytes.
 */
import { sha256 } from '../../lsp/documents.js';

export interface EditIdentity {
  operation: string;
  symbol_id: string;
  /** The file's bytes before the edit (utf8 text) and after it. */
  before: string;
  after: string;
  body?: string | undefined;
  include_doc?: boolean | undefined;
  force?: boolean | undefined;
}

export function editHash(e: EditIdentity): string {
  const fields = [e.operation, e.symbol_id, sha256(e.before), sha256(e.after), e.body ?? null, e.include_doc ?? null, e.force ?? null];
  return sha256(JSON.stringify(fields));
}
