/**
 * `skipped` of the whole-workspace analyses: the files an answer left out, each with the error
 * that left it out. A non-empty list comes with `_meta.index_state: partial` and a warning.
 */
import { z } from 'zod';

export const SkippedSchema = z
  .array(
    z.object({
      file: z.string(),
      code: z.string().describe('Error code of the failure (TIMEOUT, INTERNAL for a server error answer, ...)'),
      reason: z.string().describe("The failure as reported, the server's own message included"),
    }),
  )
  .describe('Files left out of this answer and why (the answer is `partial` when any are); empty when nothing was left out');

export type Skipped = z.infer<typeof SkippedSchema>;
