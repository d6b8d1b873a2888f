// pg's connection to PGlite for the reads layer (prisma/reads.ts): pg's protocol messages go to
// the in-process database as they would go to a server's socket, and its answers are parsed by
// pg's own parser (pg-protocol).
//
// Why not `@electric-sql/pglite/node-postgres` (0.5.16), which does the same: it hands each
// message to PGlite on its own (parse, bind, describe, execute and sync: five calls into the
// WebAssembly module per statement), and parses the answers with PGlite's parser, which copies
// every field of every row into an ArrayBuffer of its own before decoding it, a large part of the
// gateway's busy thread in a CPU profile of embedded list-page misses. Here a statement's messages go in one call, when pg sends its Sync (or Flush), and
// pg's parser decodes fields straight from the answer's bytes.
//
// PGlite's raw stream hands over the answer's bytes without parsing them (its other calls parse
// every answer, whatever they return). Calls are chained: pg sends a statement's messages before
// its answers arrive, and the next statement's only after, but `end` must wait for a call under way.
import { EventEmitter } from 'node:events';
import type { PGlite } from '@electric-sql/pglite';
import { serialize } from 'pg-protocol';
import { Parser } from 'pg-protocol/dist/parser.js';

type Serialize = typeof serialize;

export class PGliteConnection extends EventEmitter {
  /** Read by pg.Client while it connects (a timeout destroys the stream). */
  readonly stream = { destroy: () => this.end() };
  _connecting = false;
  /** pg's record of the named statements this connection has parsed, by name. */
  readonly parsedStatements: Record<string, string> = {};
  readonly submittedNamedStatements: Record<string, string> = {};
  private readonly parser = new Parser();
  private pending: Buffer[] = [];
  private chain: Promise<unknown>;
  /** pg asks for every message as `message` too only when something listens to it. */
  private emitMessage = false;

  constructor(private readonly pglite: PGlite) {
    super();
    this.chain = pglite.waitReady;
    this.on('newListener', (event) => {
      if (event === 'message') this.emitMessage = true;
    });
  }

  connect(): void {
    this._connecting = true;
    // No startup: PGlite's one session is already open.
    void this.pglite.waitReady.then(() => process.nextTick(() => this.emit('readyForQuery')));
  }

  query(text: string): void {
    this.queue(serialize.query(text));
    this.send();
  }
  parse(query: Parameters<Serialize['parse']>[0]): void {
    this.queue(serialize.parse(query));
  }
  bind(config: Parameters<Serialize['bind']>[0]): void {
    this.queue(serialize.bind(config));
  }
  describe(message: Parameters<Serialize['describe']>[0]): void {
    this.queue(serialize.describe(message));
  }
  execute(config: Parameters<Serialize['execute']>[0]): void {
    this.queue(serialize.execute(config));
  }
  close(message: Parameters<Serialize['close']>[0]): void {
    this.queue(serialize.close(message));
  }
  flush(): void {
    this.queue(serialize.flush());
    this.send();
  }
  sync(): void {
    this.queue(serialize.sync());
    this.send();
  }

  end(): void {
    this.chain = this.chain.then(() => this.emit('end'));
    for (const event of this.eventNames()) if (event !== 'newListener') this.removeAllListeners(event);
    this.emitMessage = false;
  }

  // Nothing to do for an in-process database: no TLS, no password, no cancel, no socket to ref.
  requestSsl(): void {}
  startup(): void {}
  password(): void {}
  cancel(): void {}
  ref(): void {}
  unref(): void {}

  private queue(message: Buffer): void {
    this.pending.push(message);
  }

  private send(): void {
    const messages = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.chain = this.chain
      .then(async () => {
        // The chunks are views of the module's memory, valid during the callback only: copied,
        // and parsed once the call is done (pg's handlers do not run inside the module's call).
        const chunks: Buffer[] = [];
        await this.pglite.execProtocolRawStream(messages, { onRawData: (chunk) => chunks.push(Buffer.from(chunk)) });
        for (const chunk of chunks) {
          this.parser.parse(chunk, (message) => {
            if (this.emitMessage) this.emit('message', message);
            this.emit(message.name === 'error' ? 'errorMessage' : message.name, message);
          });
        }
      })
      .catch((error: unknown) => this.emit('error', error));
  }
}
