// Types for the plain-JS test operation table (test-operations.mjs stays JS so that a spawned node
// process can load it without a build step); the type-check of test/ reads this declaration.
import type { LspgateError } from '../../src/errors/errors.js';
import type { Operation } from '../../src/operations/types.js';
import type { withMeta } from '../../src/schema/meta.js';

export declare const testState: { cancelled: number; waiting: number };

export declare function testOperations(deps: { LspgateError: typeof LspgateError; withMeta: typeof withMeta }): Operation[];
