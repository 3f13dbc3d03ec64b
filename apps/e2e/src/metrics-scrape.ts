import axios from 'axios';

/** One sample of the Prometheus text format: `name{label="value",...} number`. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g;

/** GET /metrics of a service, parsed (comments and blank lines skipped). */
export async function scrape(url: string): Promise<Sample[]> {
  const response = await axios.get<string>(`${url}/metrics`, { responseType: 'text', timeout: 5000 });
  if (response.status !== 200) throw new Error(`${url}/metrics answered ${response.status}`);
  return response.data.split('\n').flatMap((line) => {
    const match = SAMPLE.exec(line);
    if (!match || line.startsWith('#')) return [];
    const labels = Object.fromEntries([...(match[2] ?? '').matchAll(LABEL)].map(([, name, value]) => [name, value]));
    return [{ name: match[1], labels, value: Number(match[3]) }];
  });
}

/** The sum of the samples of `name` whose labels include `labels` (0 when there is none). */
export function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}
