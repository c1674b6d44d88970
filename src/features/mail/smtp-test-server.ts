// Test support: a real SMTP server (smtp-server) on 127.0.0.1 that records messages and can refuse on cue.
import { SMTPServer, type SMTPServerOptions } from "smtp-server";

export interface Received {
  from: string | null;
  to: string[];
  data: string;
  secure: boolean;
}

export interface TestSmtp {
  port: number;
  url: string;
  received: Received[];
  /** Replies for the next messages' DATA, in order: a code ≥ 400 refuses that message. */
  replies: { code: number; message: string }[];
  stop(): Promise<void>;
}

export async function startTestSmtp(opts: Partial<SMTPServerOptions> = {}): Promise<TestSmtp> {
  const received: Received[] = [];
  const replies: TestSmtp["replies"] = [];
  const server = new SMTPServer({
    authOptional: true,
    logger: false,
    disabledCommands: opts.secure || opts.key ? [] : ["STARTTLS"],
    ...opts,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const reply = replies.shift();
        if (reply && reply.code >= 400)
          return done(Object.assign(new Error(reply.message), { responseCode: reply.code }));
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          to: session.envelope.rcptTo.map((r) => r.address),
          data: Buffer.concat(chunks).toString("utf8"),
          secure: session.secure,
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as { port: number }).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    replies,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
