/**
 * Ingest baseline: the same payloads through a bare express + ajv endpoint that parses and
 * validates with the gateway's own schema and answers 204 without publishing anything.
 */
import express from 'express';
import { createValidator, v2SyncSubmissionSchema } from '@ecomm-sync/contracts';

const validate = createValidator(v2SyncSubmissionSchema);
const app = express();
app.use(express.json({ limit: '4mb' }));
app.put('/extensions/ecomm/v2/sync/messages', (req, res) => {
  const result = validate(req.body);
  if (!result.ok) return void res.status(400).json({ message: result.message });
  res.status(204).end();
});
const server = app.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const address = server.address();
  console.log(`baseline listening on ${typeof address === 'object' && address ? address.port : ''}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
