// Makes sure a RabbitMQ broker answers at AMQP_URL; starts the local one if it is installed but down.
const net = require('node:net');
const { spawnSync } = require('node:child_process');

const DEFAULT_AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';

function canConnect(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function ensureRabbitMq(amqpUrl = process.env.AMQP_URL || DEFAULT_AMQP_URL) {
  const { hostname, port } = new URL(amqpUrl);
  const amqpPort = Number(port || 5672);
  if (await canConnect(hostname, amqpPort)) return amqpUrl;
  const installed = spawnSync('sh', ['-c', 'command -v rabbitmq-server']).status === 0;
  const local = hostname === '127.0.0.1' || hostname === 'localhost';
  if (!installed || !local) {
    throw new Error(`RabbitMQ does not answer at ${hostname}:${amqpPort}; start it or set AMQP_URL`);
  }
  spawnSync('rabbitmq-server', ['-detached'], { stdio: 'inherit' });
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (await canConnect(hostname, amqpPort)) return amqpUrl;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`started rabbitmq-server but nothing answers at ${hostname}:${amqpPort} after 60 s`);
}

module.exports = { ensureRabbitMq, canConnect, DEFAULT_AMQP_URL };
