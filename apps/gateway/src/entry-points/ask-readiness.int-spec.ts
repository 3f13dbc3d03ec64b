import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { askReadiness } from './ask-readiness';

/** Two replicas behind one host name, each on its own loopback address and the same port. */
describe('askReadiness', () => {
  const servers: http.Server[] = [];
  let port: number;

  beforeAll(async () => {
    const listen = (host: string, name: string, at: number) =>
      new Promise<http.Server>((resolve) => {
        const server = http.createServer((_req, res) => res.end(JSON.stringify({ replica: name })));
        server.keepAliveTimeout = 60_000;
        server.listen(at, host, () => resolve(server));
      });
    const first = await listen('127.0.0.1', 'a', 0);
    port = (first.address() as AddressInfo).port;
    servers.push(first, await listen('127.0.0.2', 'b', port));
  });

  afterAll(() => Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve)))));

  it('when the replicas are asked one after the other, then each answer comes from the replica asked (no connection reused across them)', async () => {
    const url = `http://replicas.example:${port}`;
    const answers = [];
    for (const address of ['127.0.0.1', '127.0.0.2', '127.0.0.2', '127.0.0.1']) answers.push(await askReadiness(url, address));

    expect(answers.map((answer) => ('body' in answer ? (answer.body as { replica: string }).replica : answer.unreachable))).toEqual(['a', 'b', 'b', 'a']);
  });
});
