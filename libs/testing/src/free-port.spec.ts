import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port';

const firstEphemeral = (() => {
  try {
    return Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return 32_768;
  }
})();

describe('ports for the processes the tests start', () => {
  it('when many are asked for at once, then each is different, below the ephemeral range, reserved and free to listen on', async () => {
    const ports = await Promise.all(Array.from({ length: 50 }, () => freePort()));

    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(20_000);
      expect(port).toBeLessThan(firstEphemeral);
      expect(Date.now() - fs.statSync(path.join(os.tmpdir(), 'ecomm-sync-test-ports', String(port))).mtimeMs).toBeLessThan(60_000);
    }
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(ports[0], '0.0.0.0', resolve));
    await new Promise((resolve) => server.close(resolve));
  });

  it('when a listen(0) of the system hands out ports meanwhile, then none of them is one of ours', async () => {
    const ours = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    const servers = await Promise.all(
      Array.from(
        { length: 20 },
        () =>
          new Promise<net.Server>((resolve) => {
            const server = net.createServer();
            server.listen(0, '127.0.0.1', () => resolve(server));
          }),
      ),
    );
    const theirs = servers.map((server) => (server.address() as net.AddressInfo).port);
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));

    expect(theirs.filter((port) => ours.includes(port))).toEqual([]);
    expect(Math.min(...theirs)).toBeGreaterThanOrEqual(firstEphemeral);
  });
});
