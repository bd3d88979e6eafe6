// Writes servers.schema.json and config.schema.json (for editors) from their zod schemas. Run after tsc.
import { writeFileSync } from 'node:fs';
import { z } from 'zod';
import { ConfigFileSchema, ServersFileSchema } from '../dist/src/config/schema.js';

const schema = z.toJSONSchema(ServersFileSchema, { io: 'input', target: 'draft-2020-12' });
schema.title = 'lspgate servers.json';
writeFileSync(new URL('../servers.schema.json', import.meta.url), JSON.stringify(schema, null, 2) + '\n');

// config.json (workspace `.lspgate/config.json`, user `$XDG_CONFIG_HOME/lspgate/config.json`).
const config = z.toJSONSchema(ConfigFileSchema, { io: 'input', target: 'draft-2020-12' });
config.title = 'lspgate config.json';
writeFileSync(new URL('../config.schema.json', import.meta.url), JSON.stringify(config, null, 2) + '\n');
