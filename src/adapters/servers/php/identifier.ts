/**
 * PHP labels (PHP manual, "Variables" / "User-defined functions"): `[a-zA-Z_\x80-\xff][a-zA-Z0-9_\x80-\xff]*`
 * over the UTF-8 bytes, i.e. ASCII letters, digits and `_` plus any non-ASCII character. The name is
 * given without the `$` a variable is written with; a leading `$` is taken as that sigil.
 */
import { grammarProblem } from '../../identifier.js';

const LABEL = /^[A-Za-z_\u0080-\u{10FFFF}][A-Za-z0-9_\u0080-\u{10FFFF}]*$/u;

export function phpNameProblem(name: string): string | undefined {
  return grammarProblem(name.startsWith('$') ? name.slice(1) : name, LABEL, 'PHP');
}
