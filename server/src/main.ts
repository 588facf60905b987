import { loadConfig } from './config.ts';
import { buildApp } from './app.ts';

const config = loadConfig();
const app = await buildApp({ config });

let closing = false;
const shutdown = async (signal: string) => {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const timer = setTimeout(() => process.exit(1), 10_000);
  timer.unref();
  try {
    await app.close();
    process.exit(0);
  } catch (err) {
    app.log.error({ err }, 'shutdown failed');
    process.exit(1);
  }
};
process.on('SIGINT', () => void shutdown('SIGINT'));
// A promise rejected with nobody listening is a fault in Nimbus, never a reason to stop serving
// everyone else: it is logged with its stack and the server goes on.
process.on('unhandledRejection', (reason) => {
  app.log.error({ err: reason }, 'unhandled promise rejection (a fault; the server goes on)');
});
// An exception thrown outside any request leaves the process in an unknown state: log it and
// exit, and `npm start` starts the server again.
process.on('uncaughtException', (err, origin) => {
  app.log.fatal({ err, origin }, 'uncaught exception; stopping');
  process.exit(1);
});
process.on('SIGTERM', () => void shutdown('SIGTERM'));

try {
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Nimbus is ready on http://localhost:${config.port}`);
} catch (err) {
  app.log.error({ err }, 'could not start');
  process.exit(1);
}
