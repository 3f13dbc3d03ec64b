module.exports = async function globalTeardown() {
  const server = globalThis.__ECOMM_MONGO_SERVER__;
  if (server) await server.stop();
};
