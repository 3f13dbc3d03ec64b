// Builds (once) and runs the project's MongoDB wire-protocol server (tools/mongo-server).
const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

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

/**
 * Starts the server and resolves once it accepts connections.
 * @param {{ port?: number, host?: string, h2File?: string, log?: (line: string) => void }} options
 * @returns {Promise<{ url: string, port: number, pid: number, stop: () => Promise<void> }>}
 */
function startMongoServer({ port = 0, host = '127.0.0.1', h2File, log } = {}) {
  ensureJar();
  const args = ['-Xss4m', '-jar', jarPath, '--host', host, '--port', String(port)];
  if (h2File) {
    fs.mkdirSync(path.dirname(h2File), { recursive: true });
    args.push('--h2', h2File);
  }
  const child = spawn('java', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let started = false;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('mongo-server did not start within 60 s'));
    }, 60_000);
    const onLine = (chunk) => {
      const text = chunk.toString();
      if (log) log(text);
      const match = /mongo-server listening on ([^:\s]+):(\d+)/.exec(text);
      if (match && !started) {
        started = true;
        clearTimeout(timer);
        const boundPort = Number(match[2]);
        resolve({
          url: `mongodb://${match[1]}:${boundPort}`,
          port: boundPort,
          pid: child.pid,
          stop: () => stopChild(child),
        });
      }
    };
    child.stdout.on('data', onLine);
    child.stderr.on('data', (chunk) => log && log(chunk.toString()));
    child.on('exit', (code) => {
      if (!started) {
        clearTimeout(timer);
        reject(new Error(`mongo-server exited with code ${code} before listening`));
      }
    });
  });
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
