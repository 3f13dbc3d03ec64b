/**
 * Ingest baseline: the same payloads through a bare express + ajv endpoint that parses and
 * validates with the gateway's own schema and answers 204 without publishing anything.
 */
import { serveReference } from './reference-server';

serveReference('baseline', { accepted: () => undefined });
