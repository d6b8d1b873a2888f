// Whether a store's server is known to be down. A request that finds it down does not wait for
// it at all: the limiter fails it open or closed at once. While it is down, a probe runs in the
// background: at once (a passing hiccup then costs one probe's round trip, not an interval of
// uncounted requests), then every `probeEveryMs`, and whenever `probeSoon` says a reconnection
// may have healed it, until one succeeds. Each change is reported once: down with its reason, up with how long it
// lasted, so an outage is two log lines however many requests it touched.
// (Libraries such as opossum time a call from its start and probe with a live request; here the
// probe is the store's own and requests never pay for it.)

export interface BreakerOptions {
  /** Resolves when the server answers as it should; rejects otherwise. */
  probe(): Promise<void>;
  /** @default 1000 */
  probeEveryMs?: number;
  onDown(reason: string): void;
  onUp(downForMs: number): void;
}

export class Breaker {
  private readonly options: BreakerOptions;
  private readonly probeEveryMs: number;
  private downSince: number | undefined;
  private reason = '';
  private timer: NodeJS.Timeout | undefined;
  private probing = false;
  private closed = false;

  constructor(options: BreakerOptions) {
    this.options = options;
    this.probeEveryMs = options.probeEveryMs ?? 1_000;
  }

  get isDown(): boolean {
    return this.downSince !== undefined;
  }

  /** Why the server counts as down (empty while it is up). */
  get downReason(): string {
    return this.reason;
  }

  /** The server failed: from now on it is down until a probe succeeds. */
  trip(reason: string): void {
    if (this.isDown || this.closed) return;
    this.downSince = performance.now();
    this.reason = reason;
    this.options.onDown(reason);
    this.schedule(0);
  }

  /** Probes now rather than at the next interval (the client reconnected, for example). */
  probeSoon(): void {
    if (this.isDown) this.schedule(0);
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
  }

  private schedule(ms: number): void {
    if (this.closed || this.probing) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.probe(), ms);
    // A probe never keeps the process alive.
    this.timer.unref();
  }

  private async probe(): Promise<void> {
    this.probing = true;
    let healthy = false;
    try {
      await this.options.probe();
      healthy = true;
    } catch {
      // Still down; the next probe is scheduled below.
    }
    this.probing = false;
    if (this.closed || this.downSince === undefined) return;
    if (!healthy) return this.schedule(this.probeEveryMs);
    const downFor = performance.now() - this.downSince;
    this.downSince = undefined;
    this.reason = '';
    this.options.onUp(downFor);
  }
}
