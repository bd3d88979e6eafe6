/**
 * `lspgate <operation> --help`, generated from the operation table (the build writes each into the
 * thin entry's operation list; `lspgate --help` is src/cli/thin/help-text.ts).
 */
import { describeOperation } from '../operations/describe.js';
import type { Operation } from '../operations/types.js';
import { describeFields, inputFields } from './input-fields.js';

export function operationHelp(op: Operation): string {
  const positional = op.repl?.positional ?? [];
  return [
    `lspgate ${op.name}${positional.map((p) => ` [${p}]`).join('')} [--root DIR] [--<field> value ...] [--json]`,
    '',
    op.title,
    '',
    describeOperation(op),
    '',
    'Fields:',
    ...describeFields(inputFields(op)),
    '',
    'Arrays: repeat the flag (or give one JSON array). Booleans: --flag / --no-flag.',
    positional.length ? `Positional words fill: ${positional.join(', ')}.` : '',
  ]
    .join('\n')
    .trimEnd();
}
