import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import amqplib from 'amqplib';
import { freePort } from './free-port';

export interface PrivateRabbitMq {
  /** AMQP URL of the node (guest/guest on 127.0.0.1). */
  url: string;
  /** Erlang node name, `test-<random>@localhost`. */
  nodeName: string;
  /** OS pid of the node's Erlang VM (beam.smp) while it runs. */
  pid(): number | undefined;
  /** True while the node's VM runs (from its start until kill, stop or a crash). */
  isRunning(): boolean;
  /**
   * SIGKILLs the node's Erlang VM: no goodbye to its clients, as when its host dies. It first waits
   * (at most 3 s) until the node has saved the registration of every quorum queue: RabbitMQ 3.10
   * (Ra 2.2) writes it up to 500 ms after the declare, and a queue killed before that never gets
   * a leader again; so a test may declare its queues and kill the node right away.
   */
  kill(): Promise<void>;
  /**
   * Starts the node again on the same ports and data; resolves when AMQP answers. Its quorum queues
   * may need a moment more before they serve (RabbitMQ answers 541 meanwhile).
   */
  restart(): Promise<void>;
  /** Stops the node and deletes its data. */
  stop(): Promise<void>;
  /** Runs rabbitmqctl against the node (`set_vm_memory_high_watermark 0` raises a memory alarm); its output. */
  ctl(...args: string[]): Promise<string>;
}

/**
 * The Debian package's /usr/sbin/rabbitmq-server switches to the rabbitmq user through `su`, which
 * puts processes between us and the VM; the script it calls is the real one.
 */
const SERVER_SCRIPTS = ['/usr/lib/rabbitmq/bin/rabbitmq-server', 'rabbitmq-server'];
const CTL_SCRIPTS = ['/usr/lib/rabbitmq/bin/rabbitmqctl', 'rabbitmqctl'];
const execFileAsync = promisify(execFile);

/**
 * A RabbitMQ node of its own for tests that break the broker (kill it, restart it), on free ports,
 * with its data, logs, config and Erlang cookie in a temp dir; the shared node is never touched.
 *
 * The server script runs in the foreground with RABBITMQ_ALLOW_INPUT set, which makes it exec the
 * Erlang VM instead of keeping a shell around it: the spawned child is beam.smp itself, so
 * `kill()` really kills the node (its port programs exit with it). `-noinput` keeps the Erlang
 * shell off all the same.
 */
export async function startPrivateRabbitMq({
  startTimeoutMs = 60_000,
  distPort: firstDistPort,
}: {
  startTimeoutMs?: number;
  /** The Erlang distribution port to try first (default: one free when asked); a test gives a taken one. */
  distPort?: number;
} = {}): Promise<PrivateRabbitMq> {
  const dir = await mkdtemp(path.join(tmpdir(), 'ecomm-rabbitmq-'));
  const amqpPort = await freePort();
  let distPort = firstDistPort ?? (await freePort());
  while (distPort === amqpPort) distPort = await freePort();
  const nodeName = `test-${randomBytes(4).toString('hex')}@localhost`;
  const url = `amqp://guest:guest@127.0.0.1:${amqpPort}`;
  const logFile = path.join(dir, 'node.log');

  await writeFile(path.join(dir, 'enabled_plugins'), '[].\n');
  await writeFile(path.join(dir, 'rabbitmq-env.conf'), '');
  await writeFile(path.join(dir, 'rabbitmq.conf'), `listeners.tcp.local = 127.0.0.1:${amqpPort}\n`);

  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('RABBITMQ_') && !key.startsWith('ERL_')));
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    HOME: dir, // its own Erlang cookie
    RABBITMQ_NODENAME: nodeName,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(amqpPort),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: path.join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: path.join(dir, 'log'),
    RABBITMQ_CONFIG_FILE: path.join(dir, 'rabbitmq.conf'),
    RABBITMQ_CONF_ENV_FILE: path.join(dir, 'rabbitmq-env.conf'),
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, 'enabled_plugins'),
    RABBITMQ_ALLOW_INPUT: 'true',
    RABBITMQ_SERVER_ADDITIONAL_ERL_ARGS: '-noinput',
    ERL_EPMD_ADDRESS: '127.0.0.1',
    ERL_FLAGS: '-kernel inet_dist_use_interface {127,0,0,1}',
  };
  const script = SERVER_SCRIPTS.find((candidate) => !candidate.startsWith('/') || existsSync(candidate))!;

  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const killOnExit = () => child?.kill('SIGKILL');
  process.once('exit', killOnExit);

  // A free port is free only when asked: another process (a client's outgoing connection) may take
  // the distribution port before the node binds it. The node then exits at once saying so, and is
  // started again on another; clients never use that port, so a restart may move it too.
  const launch = async (attemptsLeft = 3): Promise<void> => {
    const logBefore = existsSync(logFile) ? readFileSync(logFile, 'utf8').length : 0;
    try {
      await launchOnce();
    } catch (error) {
      const thisAttempt = existsSync(logFile) ? readFileSync(logFile, 'utf8').slice(logBefore) : '';
      if (attemptsLeft <= 1 || !thisAttempt.includes('dist_port_already_used')) throw error;
      let next = await freePort();
      while (next === amqpPort || next === distPort) next = await freePort();
      distPort = next;
      env.RABBITMQ_DIST_PORT = String(distPort);
      await launch(attemptsLeft - 1);
    }
  };

  const launchOnce = async () => {
    const log = openSync(logFile, 'a');
    const started = spawn(script, [], { env, cwd: dir, stdio: ['ignore', log, log] });
    closeSync(log);
    child = started;
    if (started.pid) watch(started.pid, dir);
    exited = new Promise((resolve) => started.once('exit', () => resolve()));
    let gone = false;
    // `exited` only ever resolves, so this watcher cannot fail.
    void exited.then(() => {
      gone = true;
      if (child === started) child = undefined;
    });
    const deadline = Date.now() + startTimeoutMs;
    while (!(await answers(url))) {
      const problem = gone
        ? 'exited while starting'
        : Date.now() > deadline
          ? `did not answer at 127.0.0.1:${amqpPort} within ${startTimeoutMs} ms`
          : undefined;
      if (problem) {
        started.kill('SIGKILL');
        await exited;
        throw new Error(`RabbitMQ node ${nodeName} ${problem}; the end of its log (${logFile}):\n${tail(logFile)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  };

  const terminate = async (signal: NodeJS.Signals, graceMs: number) => {
    const running = child;
    if (!running) return;
    running.kill(signal);
    const timer = signal === 'SIGKILL' ? undefined : setTimeout(() => running.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };

  await launch().catch(async (error) => {
    process.removeListener('exit', killOnExit);
    await rm(dir, { recursive: true, force: true });
    throw error;
  });

  const quorumDir = path.join(dir, 'mnesia', nodeName, 'quorum', nodeName);

  return {
    url,
    nodeName,
    pid: () => child?.pid,
    isRunning: () => child !== undefined,
    kill: async () => {
      const deadline = Date.now() + 3_000;
      while (!(await quorumRegistrationsSaved(quorumDir)) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      await terminate('SIGKILL', 0);
    },
    restart: async () => {
      await terminate('SIGTERM', 15_000);
      await launch();
    },
    stop: async () => {
      await terminate('SIGTERM', 15_000);
      process.removeListener('exit', killOnExit);
      await rm(dir, { recursive: true, force: true });
    },
    // The node's own environment: its HOME holds the Erlang cookie rabbitmqctl needs.
    ctl: async (...args) =>
      (
        await execFileAsync(
          CTL_SCRIPTS.find((candidate) => !candidate.startsWith('/') || existsSync(candidate))!,
          ['-n', nodeName, ...args],
          { env, cwd: dir },
        )
      ).stdout,
  };
}

/**
 * Kills the node and deletes its data if this process dies without stopping it (a test run
 * killed halfway); it ends by itself once the node is gone.
 */
function watch(vmPid: number, dir: string): void {
  const script = `while kill -0 ${process.pid} 2>/dev/null; do kill -0 ${vmPid} 2>/dev/null || exit 0; sleep 1; done; kill -9 ${vmPid}; rm -rf '${dir}'`;
  spawn('sh', ['-c', script], { detached: true, stdio: 'ignore' }).unref();
}

/**
 * Each quorum queue member has a data directory named by its Ra UId, and names.dets maps server
 * names to UIds; a UId missing from the file is a registration not saved yet. (Layout of Ra 2.2;
 * where it differs, there is nothing to wait for.)
 */
async function quorumRegistrationsSaved(quorumDir: string): Promise<boolean> {
  try {
    const names = await readFile(path.join(quorumDir, 'names.dets'));
    const members = (await readdir(quorumDir, { withFileTypes: true })).filter((entry) => entry.isDirectory());
    return members.every(({ name }) => names.includes(name));
  } catch {
    return true;
  }
}

/** True once the node completes an AMQP handshake (the listener opens at the end of boot). */
async function answers(url: string): Promise<boolean> {
  try {
    const connection = await amqplib.connect(url);
    await connection.close();
    return true;
  } catch {
    return false;
  }
}

function tail(file: string, lines = 30): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}
