// Writes servers.schema.json (for editors) from the zod schema of servers.json. Run after tsc.
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { ServersFileSchema } from '../dist/src/config/schema.js';

const schema = z.toJSONSchema(ServersFileSchema, { io: 'input', target: 'draft-2020-12' });
schema.title = 'lspgate servers.json';
writeFileSync(new URL('../servers.schema.json', import.meta.url), JSON.stringify(schema, null, 2) + '\n');
