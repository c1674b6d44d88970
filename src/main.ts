// Entry point: reads config, opens and migrates the database, starts the HTTP server and workers.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig } from "./config.ts";
import { openDatabase } from "./db/client.ts";
import { createApp } from "./app.ts";
import { createServices } from "./services.ts";
import { rememberClientAddress } from "./features/web/http.ts";

function start() {
  let config;
  try {
    config = loadConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      console.error(`commonplace: invalid configuration: ${e.message}`);
      process.exit(1);
    }
    throw e;
  }
  mkdirSync(config.dataDir, { recursive: true });
  const db = openDatabase(join(config.dataDir, "commonplace.db"));
  const services = createServices({ config, db });
  const app = createApp(services);
  const server = Bun.serve({
    port: config.port,
    hostname: config.hostname,
    maxRequestBodySize: Math.max(config.http.maxBodyBytes, config.workflows.webhookMaxBytes) * 2,
    fetch: (req, srv) => {
      // The per-address sign-in limit needs the peer address, which app.handle alone cannot see.
      rememberClientAddress(req, srv.requestIP(req)?.address);
      return app.handle(req);
    },
  });
  services.indexer.ensureCurrent();
  services.runner.start();
  services.feedScheduler.start();
  void services.accounts.warmUp();
  services.logger.info("listening", { url: `http://${server.hostname}:${server.port}`, base_url: config.baseUrl, data_dir: config.dataDir });

  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    services.logger.info("shutting down", { signal });
    // Stop taking requests and jobs; let in-flight steps finish within the grace period.
    await server.stop();
    services.scheduler.stopAll();
    await services.runner.stop({ graceMs: 10_000 });
    await Promise.all([services.extractor.close(), services.podcasts.close()]);
    services.logger.flush();
    db.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

start();
