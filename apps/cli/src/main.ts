import { ConfigError, loadConfig } from '@ecomm-sync/runtime';
import { connectDatabase, SecretBox } from '@ecomm-sync/data-access';
import { isQueueName, QUEUES, redriveAllDeadLetters, redriveDeadLetters } from '@ecomm-sync/messaging';
import { adminUsage, runAdminCommand, UsageError } from './admin-commands';
import { cliConfig } from './config';
import { createPortal } from './create-portal';
import { resealOutcome, resealSecrets } from './reseal';
import { seedDemo } from './seed-demo';

const USAGE = `Usage: ecomm-sync <command>

Commands:
  redrive <queue> | --all  move the dead letters of a queue, or of every queue, back to it (${Object.keys(QUEUES).join(', ')})
  create-portal [name]     create a portal and its CRM account, ready to sync with the demo's mappings; prints its keys
  seed-demo                create the demo portal of npm start (DEMO_* variables), ready to sync
  reseal [--allow-empty]   seal every stored secret again under SECRETS_KEY, bound to its portal or application
                           (after a key rotation: old keys in SECRETS_PREVIOUS_KEYS until it reports no failure;
                           finding no secret at all is a failure unless --allow-empty)

Accounts and credentials, through the gateway's admin API (GATEWAY_URL, ADMIN_TOKEN):
${adminUsage()}

Configuration comes from the environment (MONGO_URL, MONGO_DB, AMQP_URL, AMQP_PREFIX, CRM_BASE_URL, GATEWAY_URL, ADMIN_TOKEN, SECRETS_KEY, DEMO_*).`;

/** Commands that take no argument but the ones named: anything else (a typo, --help) runs nothing. */
const OPTIONS: Record<string, readonly string[]> = { 'seed-demo': [], reseal: ['--allow-empty'] };

const REDRIVE_USAGE = `usage: ecomm-sync redrive <queue> | --all\nqueues: ${Object.keys(QUEUES).join(', ')}`;

async function main(argv: string[]) {
  const [command, ...args] = argv;
  // --help anywhere runs nothing: "admin portals rotate-key 42 --help" must not rotate the key.
  if (argv.some((arg) => arg === '--help' || arg === '-h')) {
    return void console.log(
      command === 'admin' ? `Usage: ecomm-sync admin <resource> <action> ...\n\n${adminUsage()}` : command === 'redrive' ? REDRIVE_USAGE : USAGE,
    );
  }
  if (command === 'redrive' && args.length > 1) throw new UsageError(`redrive takes one queue or --all, not "${args.slice(1).join(' ')}"\n${REDRIVE_USAGE}`);
  const allowed = Object.hasOwn(OPTIONS, command) ? OPTIONS[command] : undefined;
  const unexpected = allowed ? args.find((arg) => !allowed.includes(arg)) : undefined;
  if (unexpected !== undefined) throw new UsageError(`${command} takes no argument "${unexpected}"\n\n${USAGE}`);
  const config = loadConfig(cliConfig);
  switch (command) {
    case 'redrive': {
      const [target] = args;
      if (target !== '--all' && !(target && isQueueName(target)))
        throw new UsageError(`${target ? `unknown queue "${target}"` : 'which queue?'}\n${REDRIVE_USAGE}`);
      const print = ({ queue, moved }: { queue: string; moved: number }) => console.log(`${queue}: moved ${moved} dead letter(s) back to the queue`);
      if (target === '--all') await redriveAllDeadLetters(config.AMQP_URL, config.AMQP_PREFIX, print);
      else print({ queue: target, moved: await redriveDeadLetters(config.AMQP_URL, config.AMQP_PREFIX, target) });
      return;
    }
    case 'create-portal': {
      const database = await connectDatabase(config.MONGO_URL, config.MONGO_DB);
      try {
        console.log(JSON.stringify(await createPortal(database.repositories, config, args[0]), null, 2));
      } finally {
        await database.close();
      }
      return;
    }
    case 'seed-demo': {
      const database = await connectDatabase(config.MONGO_URL, config.MONGO_DB);
      try {
        await seedDemo(database.repositories, config);
        console.log(`demo portal ${config.DEMO_PORTAL_ID} is ready`);
      } finally {
        await database.close();
      }
      return;
    }
    case 'reseal': {
      const database = await connectDatabase(config.MONGO_URL, config.MONGO_DB);
      try {
        const box = SecretBox.fromConfig(config);
        const report = await resealSecrets(database.repositories, box);
        const { lines, exitCode } = resealOutcome(report, { keyId: box.keyId, database: config.MONGO_DB, allowEmpty: args.includes('--allow-empty') });
        for (const line of lines) console.log(line);
        process.exitCode = exitCode;
      } finally {
        await database.close();
      }
      return;
    }
    case 'admin':
      console.log(await runAdminCommand(config.GATEWAY_URL, config.ADMIN_TOKEN, args));
      return;
    default:
      console.log(USAGE);
      if (command && command !== 'help' && command !== '--help') process.exitCode = 2;
  }
}

main(process.argv.slice(2)).catch((error) => {
  console.error(error instanceof ConfigError ? error.message : error instanceof Error ? error.message : error);
  process.exit(error instanceof UsageError ? 2 : 1);
});
