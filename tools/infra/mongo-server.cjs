// Builds (once) and runs the project's MongoDB wire-protocol server (tools/mongo-server).
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { canConnect } = require('./rabbitmq.cjs');

const projectDir = path.join(__dirname, '..', 'mongo-server');
const jarPath = path.join(projectDir, 'target', 'mongo-server.jar');

function ensureJar() {
  if (fs.existsSync(jarPath)) return jarPath;
  const result = spawnSync('mvn', ['-q', '-B', 'package', '-DskipTests'], { cwd: projectDir, stdio: 'inherit' });
  if (result.status !== 0 || !fs.existsSync(jarPath)) {
    throw new Error(`building ${jarPath} with Maven failed (exit ${result.status}); is Maven installed and Maven Central reachable?`);
  }
  return jarPath;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the server and resolves once it accepts connections. Its output goes to a log file, never
 * to a pipe: a parent busy in a synchronous call would not drain a pipe, and the server would stall.
 * `javaOptions` go before `-jar` (for example a flight recording when profiling).
 * @param {{ port?: number, host?: string, h2File?: string, logFile?: string, javaOptions?: string[] }} options
 * @returns {Promise<{ url: string, port: number, pid: number, logFile: string, stop: () => Promise<void> }>}
 */
async function startMongoServer({ port = 0, host = '127.0.0.1', h2File, logFile, javaOptions = [] } = {}) {
  ensureJar();
  const boundPort = port || (await freePort());
  const log = logFile ?? path.join(os.tmpdir(), `mongo-server-${boundPort}.log`);
  const args = ['-Xss4m', '-XX:+UseParallelGC', '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn', ...javaOptions, '-jar', jarPath, '--host', host, '--port', String(boundPort)];
  if (h2File) {
    fs.mkdirSync(path.dirname(h2File), { recursive: true });
    args.push('--h2', h2File);
  }
  fs.mkdirSync(path.dirname(log), { recursive: true });
  const out = fs.openSync(log, 'a');
  const child = spawn('java', args, { stdio: ['ignore', out, out] });
  fs.closeSync(out);
  let exitCode = null;
  child.once('exit', (code) => (exitCode = code ?? -1));
  const deadline = Date.now() + 60_000;
  while (!(await canConnect(host, boundPort, 500))) {
    if (exitCode !== null) throw new Error(`mongo-server exited with code ${exitCode} before listening; see ${log}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`mongo-server did not listen on ${host}:${boundPort} within 60 s; see ${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url: `mongodb://${host}:${boundPort}`, port: boundPort, pid: child.pid, logFile: log, stop: () => stopChild(child) };
}

function stopChild(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

module.exports = { ensureJar, startMongoServer, jarPath };
