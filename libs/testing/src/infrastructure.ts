/** Where the run's infrastructure is: set by tools/jest/global-setup.cjs before any test file loads. */
export function testInfrastructure(): { mongoUrl: string; amqpUrl: string } {
  const mongoUrl = process.env.MONGO_URL;
  const amqpUrl = process.env.AMQP_URL;
  if (!mongoUrl || !amqpUrl) {
    throw new Error('MONGO_URL and AMQP_URL are not set: run this suite through its jest config (integration or e2e), whose global setup starts them');
  }
  return { mongoUrl, amqpUrl };
}
