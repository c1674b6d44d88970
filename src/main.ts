// Entry point: reads config, opens and migrates the database, starts the HTTP server and workers.
import { ConfigError, loadConfig } from "./config.ts";
import { openConfiguredDatabase } from "./db/client.ts";
import { exclusively } from "./db/exclusive.ts";
import { createApp } from "./app.ts";
import { createServices } from "./services.ts";
import { serveOptions } from "./http/serve.ts";
import { dataDirExposure, ensureWritableDataDir, listenError, StartupError } from "./startup.ts";

async function start() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`commonplace: invalid configuration: ${e.message}`);
      process.exit(1);
    }
    throw e;
  }
  // Whatever this process creates — database, -wal/-shm, audio, temporary files — is for this user only.
  process.umask(0o077);
  ensureWritableDataDir(config.dataDir);
  const db = openConfiguredDatabase(config);
  const services = createServices({ config, db });
  const exposed = dataDirExposure(config.dataDir);
  if (exposed) services.logger.warn(exposed);
  const app = createApp(services);
  // Emails stored before they were canonical (SQL cannot NFKC): before the first request looks one up.
  await exclusively(db, "accounts:normalise-emails", () => services.accounts.normaliseStoredEmails(services.logger));
  let server: ReturnType<typeof Bun.serve>;
  try {
    server = Bun.serve(serveOptions(app, config, services.logger));
  } catch (e) {
    await db.end();
    throw listenError(e, config.port, config.hostname);
  }
  // Every process runs this at start-up; on PostgreSQL they take turns (a re-embedding is queued once,
  // under an idempotency key, and code tables are prepared by one process at a time).
  await exclusively(db, "vectors:ensure-current", () => services.indexer.ensureCurrent());
  if (config.jobs.run) services.runner.start();
  await services.feedScheduler.start();
  services.linkCheck.start();
  services.blobSweep.start();
  void services.accounts.warmUp();
  services.logger.info("listening", {
    url: `http://${server.hostname}:${server.port}`,
    base_url: config.baseUrl,
    data_dir: config.dataDir,
  });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    services.logger.info("shutting down", { signal });
    // Stop taking requests and jobs; let in-flight steps finish within the grace period. Open event
    // streams never finish by themselves: end them (clients resume with Last-Event-ID).
    const stopped = server.stop();
    services.live.hub.close();
    await stopped;
    services.scheduler.stopAll();
    await services.runner.stop({ graceMs: 10_000 });
    await Promise.all([services.extractor.close(), services.importParser.close(), services.podcasts.close()]);
    services.logger.flush();
    await db.end();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

try {
  await start();
} catch (e) {
  // Things a self-hoster can fix get one line, not a stack trace.
  if (!(e instanceof StartupError)) throw e;
  console.error(`commonplace: ${e.message}`);
  process.exit(1);
}
