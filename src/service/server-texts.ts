/**
 * Texts a server writes about code (hover, signature help, diagnostics messages, code-action titles)
 * pass the gate reads pass. A hover quotes its declaration: the docs and the value of a constant in
 * `.env.ts`, a private-key string, a file a tsconfig `paths` entry reaches outside the root. So the
 * text is judged by where the symbol it describes is declared, with the rule every location follows
 * (locate.ts `locate`): a secret file (by name or key content) is never quoted, a file outside the
 * workspace is quoted only when it is library code (node_modules, lib.d.ts, the standard library,
 * site-packages). Whatever the origin, a private-key block in the text itself is redacted.
 */
import type { Location } from 'vscode-languageserver-protocol';

import { REDACTED_KEY, redactPrivateKeys } from '../util/secret-files.js';
import type { ServiceCall } from './call.js';
import { locate } from './locate.js';

/** Why a server's text about a symbol is not shown. */
export interface Withheld {
  reason: 'secret_file' | 'outside_workspace';
  /** Workspace-relative, or absolute outside it. */
  file: string;
  message: string;
}

/**
 * The first declaration in `declarations` whose text may not be quoted, as the reason; undefined
 * when all may be (a declaration merged across a workspace file and lib.d.ts is quotable).
 */
export function withheldOrigin(root: string, declarations: readonly Location[], what: string): Withheld | undefined {
  for (const d of declarations) {
    const where = locate(root, d.uri);
    if (where.where === 'refused' && where.reason !== 'not_file_uri') {
      const why = where.reason === 'private_key' ? 'which holds a private key' : 'a secret file';
      return { reason: 'secret_file', file: where.file, message: `${what} is not shown: it is declared in ${where.file}, ${why}` };
    }
    if (where.where === 'external' && !where.library) {
      return {
        reason: 'outside_workspace',
        file: where.abs,
        message: `${what} is not shown: it is declared in ${where.abs}, outside the workspace and not library code (its location is answered by find_definition, its docs and values are not)`,
      };
    }
  }
  return undefined;
}

/** Redacts private-key blocks in a text of the answer, once warning that it did. */
export class TextGate {
  private warned = false;
  constructor(private readonly call: ServiceCall) {}

  text(s: string): string {
    const out = redactPrivateKeys(s);
    if (out !== s && !this.warned) {
      this.warned = true;
      this.call.meta.warn(`a private key block in the server's text was replaced by ${REDACTED_KEY}`);
    }
    return out;
  }
}
