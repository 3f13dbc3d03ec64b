import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

export type Manifest = Record<string, unknown> & { apiVersion?: string; kind?: string; metadata?: { name?: string } };

/** Every document of a YAML text (merge keys resolved); a syntax error throws, naming the file and line. */
export function parseYamlDocuments(text: string, file: string): unknown[] {
  return parseAllDocuments(text, { merge: true, prettyErrors: true }).flatMap((document) => {
    if (document.errors.length > 0) throw new Error(`${file}: ${document.errors.map((error) => error.message).join('; ')}`);
    const value = document.toJS();
    return value === null ? [] : [value];
  });
}

export const readYamlDocuments = (file: string): unknown[] => parseYamlDocuments(readFileSync(file, 'utf8'), file);

export const describeManifest = (manifest: Manifest): string => `${manifest.kind ?? '?'} ${manifest.metadata?.name ?? '?'}`;
