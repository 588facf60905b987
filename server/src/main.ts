import { loadConfig } from './config.ts';
import { buildApp } from './app.ts';
import { EarlyServer } from './early-server.ts';

const config = loadConfig();
// listen first: while the database is migrated and the app starts, requests get 503 "migrating"
// (readiness names the phase) rather than a refused connection
const early = new EarlyServer();
try {
  await early.listen(config.port, config.host);
} catch (err) {
  console.error(`could not start: ${(err as Error).message}`);
  process.exit(1);
}
const app = await buildApp({ config, early });

let closing = false;
const shutdown = async (signal: string) => {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const timer = setTimeout(() => process.exit(1), 10_000);
  timer.unref();
  try {
    await early.close(app);
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
  await early.handOver(app);
  app.log.info(`Nimbus is ready on http://localhost:${config.port}`);
} catch (err) {
  app.log.error({ err }, 'could not start');
  process.exit(1);
}
