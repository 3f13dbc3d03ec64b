/**
 * What the ingest figure's reference servers share (baseline-server.ts, floor-server.ts): the
 * gateway's v2 sync route as bare express + ajv with the gateway's own schema, on the port given
 * (0: any), announcing it on stdout (`<name> listening on <port>`), ending on SIGTERM.
 */
import express from 'express';
import { createValidator, v2SyncSubmissionSchema, type V2SyncSubmission } from '@ecomm-sync/contracts';

export function serveReference(
  name: string,
  { accepted, onStop = async () => undefined }: { accepted: (submission: V2SyncSubmission) => Promise<void> | void; onStop?: () => Promise<void> },
): void {
  const validate = createValidator(v2SyncSubmissionSchema);
  const app = express();
  app.use(express.json({ limit: '4mb' }));
  app.put('/extensions/ecomm/v2/sync/messages', (req, res, next) => {
    const result = validate(req.body);
    if (!result.ok) return void res.status(400).json({ message: result.message });
    const stored = accepted(result.value);
    // The baseline answers at once, as it always did; the floor once its publish is confirmed.
    if (!stored) return void res.status(204).end();
    stored.then(() => res.status(204).end(), next);
  });
  const server = app.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
    const address = server.address();
    console.log(`${name} listening on ${typeof address === 'object' && address ? address.port : ''}`);
  });
  process.on('SIGTERM', () => server.close(() => void onStop().finally(() => process.exit(0))));
}
