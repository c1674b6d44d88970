// Test support: a local Bun.serve standing in for the outside web, recording every request it receives.
import type { Server } from "bun";

export interface SeenRequest {
  method: string;
  path: string;
  host: string | null;
  headers: Record<string, string>;
  body: string;
}

export interface TestServer {
  port: number;
  seen: SeenRequest[];
  server: Server<undefined>;
  stop(): Promise<void>;
}

/** Listens on every local address (dual-stack when the host has IPv6) so odd spellings would reach it. */
export function startTestServer(
  handler: (req: Request, seen: SeenRequest) => Response | Promise<Response>,
): TestServer {
  const seen: SeenRequest[] = [];
  const fetch = async (req: Request) => {
    const url = new URL(req.url);
    const record: SeenRequest = {
      method: req.method,
      path: url.pathname + url.search,
      host: req.headers.get("host"),
      headers: Object.fromEntries(req.headers),
      body: await req.text(),
    };
    seen.push(record);
    return handler(req, record);
  };
  let server: Server<undefined>;
  try {
    server = Bun.serve({ port: 0, hostname: "::", fetch });
  } catch {
    server = Bun.serve({ port: 0, hostname: "0.0.0.0", fetch });
  }
  return { port: server.port!, seen, server, stop: () => server.stop(true) };
}

/** A lookup that answers every name with fixed addresses and remembers what it was asked. */
export function fakeLookup(answers: Record<string, string[]>) {
  const asked: string[] = [];
  const lookup = async (host: string) => {
    asked.push(host);
    const addresses = answers[host];
    if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
    return addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
  };
  return { lookup, asked };
}
