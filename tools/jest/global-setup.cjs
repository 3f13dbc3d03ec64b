// Integration and e2e tiers: one MongoDB-wire server per jest run (unless MONGO_URL is given,
// as tools/scripts/test-all.mjs does for the whole run) and a reachable RabbitMQ.
const { startMongoServer } = require('../infra/mongo-server.cjs');
const { ensureRabbitMq } = require('../infra/rabbitmq.cjs');

module.exports = async function globalSetup() {
  process.env.AMQP_URL = await ensureRabbitMq();
  if (!process.env.MONGO_URL) {
    const server = await startMongoServer();
    globalThis.__ECOMM_MONGO_SERVER__ = server;
    process.env.MONGO_URL = server.url;
  }
};
