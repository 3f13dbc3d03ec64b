import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A port for a process the tests start, free when asked and kept from the other test processes of
 * the machine until that process has had time to bind it.
 *
 * A port the system hands out (`listen(0)`) comes from its ephemeral range, where every other
 * `listen(0)` and every outgoing connection of the machine draws too: a stack picks its apps' ports
 * first and starts the apps one after another, and in those seconds a fixture of a suite running
 * beside it took a gateway's port, the gateway exited with EADDRINUSE, and the stack's requests
 * reached the fixture (a 404 from `POST /admin/v1/portals`). So ports come from below the ephemeral
 * range, where the system never hands one out, and each is reserved by a file created exclusively
 * in a directory all test processes share; a reservation older than `RESERVED_MS` is stale (its
 * process bound the port long since, or died).
 */
export async function freePort(): Promise<number> {
  const [low, high] = PORT_RANGE;
  if (high - low < 1_000) return systemPort();
  fs.mkdirSync(RESERVATIONS, { recursive: true });
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low));
    if (!reserve(port)) continue;
    if (await canListen(port)) return port;
  }
  return systemPort();
}

const RESERVED_MS = 120_000;
const RESERVATIONS = path.join(os.tmpdir(), 'ecomm-sync-test-ports');

/** [20,000, the first ephemeral port): read from Linux's settings, 32,768 where they cannot be read. */
const PORT_RANGE: readonly [number, number] = (() => {
  try {
    const first = Number(fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return [20_000, Number.isInteger(first) ? first : 32_768];
  } catch {
    return [20_000, 32_768];
  }
})();

/** True when this process now holds the port's reservation (a new one, or one gone stale). */
function reserve(port: number): boolean {
  const file = path.join(RESERVATIONS, String(port));
  try {
    fs.closeSync(fs.openSync(file, 'wx'));
    return true;
  } catch {
    try {
      if (Date.now() - fs.statSync(file).mtimeMs < RESERVED_MS) return false;
      fs.utimesSync(file, new Date(), new Date());
      return true;
    } catch {
      return false;
    }
  }
}

/** Whether a server could listen on the port on every address (the apps listen on 0.0.0.0). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

/** A port the system hands out: free now, with no reservation. */
function systemPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
