// Builds (again whenever its sources change) and runs the project's MongoDB wire-protocol server (tools/mongo-server).
const { spawn, spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { canConnect } = require('./rabbitmq.cjs');

const projectDir = path.join(__dirname, '..', 'mongo-server');
const jarPath = path.join(projectDir, 'target', 'mongo-server.jar');
// Hash of the sources the jar was built from, written beside it after a build: a machine that has a
// jar from older sources rebuilds it instead of running the old launcher.
const stampPath = `${jarPath}.sources-sha256`;
const buildLockPath = path.join(os.tmpdir(), `ecomm-sync-mongo-server-build-${crypto.createHash('sha256').update(projectDir).digest('hex').slice(0, 12)}.lock`);

function sourceFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(file) : [file];
  });
}

function sourcesHash() {
  const hash = crypto.createHash('sha256');
  const files = [path.join(projectDir, 'pom.xml'), ...sourceFiles(path.join(projectDir, 'src'))];
  for (const file of files.map((f) => path.relative(projectDir, f).split(path.sep).join('/')).sort()) {
    hash.update(`${file}\0`).update(fs.readFileSync(path.join(projectDir, file))).update('\0');
  }
  return hash.digest('hex');
}

function jarIsCurrent(hash) {
  try {
    return fs.existsSync(jarPath) && fs.readFileSync(stampPath, 'utf8').trim() === hash;
  } catch {
    return false;
  }
}

function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/**
 * One build at a time across processes (nx runs several integration targets at once, each starting
 * a server): the lock is a directory holding the builder's pid; a lock whose builder is gone is taken over.
 */
function withBuildLock(build) {
  const deadline = Date.now() + 15 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(buildLockPath);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    let owner = NaN;
    try {
      owner = Number(fs.readFileSync(path.join(buildLockPath, 'pid'), 'utf8'));
    } catch {
      // the owner has not written its pid yet, or has just released the lock
    }
    if (Number.isInteger(owner) && owner > 0 && !isAlive(owner)) {
      fs.rmSync(buildLockPath, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`waited 15 minutes for another build of ${jarPath} (lock ${buildLockPath})`);
    sleepSync(200);
  }
  try {
    fs.writeFileSync(path.join(buildLockPath, 'pid'), String(process.pid));
    return build();
  } finally {
    fs.rmSync(buildLockPath, { recursive: true, force: true });
  }
}

function ensureJar() {
  if (jarIsCurrent(sourcesHash())) return jarPath;
  return withBuildLock(() => {
    const hash = sourcesHash();
    if (jarIsCurrent(hash)) return jarPath; // another process built it while this one waited
    fs.rmSync(stampPath, { force: true });
    const result = spawnSync('mvn', ['-q', '-B', 'clean', 'package', '-DskipTests'], { cwd: projectDir, stdio: 'inherit' });
    if (result.status !== 0 || !fs.existsSync(jarPath)) {
      throw new Error(`building ${jarPath} with Maven failed (exit ${result.status}); is Maven installed and Maven Central reachable?`);
    }
    fs.writeFileSync(stampPath, `${hash}\n`);
    return jarPath;
  });
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

let collector;
/**
 * The collector the server runs with (decision 15, addenda). The parallel collector's full
 * collections stopped the server for 0.9–1.8 s under load, every app's every command with it; G1's
 * young pauses grew to 60–170 ms as the server kept more data (an in-memory store's documents all
 * live long); Shenandoah collects concurrently, its pauses stayed under 6 ms. MongoDB, which the
 * server stands in for, has no collector. Not every JDK 17 build has Shenandoah (Debian's and
 * Temurin's do, Oracle's does not): on one without it the server runs G1, asked once per process.
 */
function collectorOptions() {
  if (!collector) {
    const probe = spawnSync('java', ['-XX:+UseShenandoahGC', '-version'], { stdio: 'ignore' });
    collector = probe.status === 0 ? ['-XX:+UseShenandoahGC'] : ['-XX:+UseG1GC', '-XX:MaxGCPauseMillis=50'];
  }
  return collector;
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
  const args = ['-Xss4m', ...collectorOptions(), '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn', ...javaOptions, '-jar', jarPath, '--host', host, '--port', String(boundPort)];
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
