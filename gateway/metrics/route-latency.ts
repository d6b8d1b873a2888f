// The request-latency histogram by route, kept in plain arrays and written in Prometheus's
// text format at scrape time. prom-client's Histogram resolves its label object on every
// observation; with its counters, that was a measurable part of a cached response (bench/RESULTS.md).
// The output is what prom-client writes for a histogram with one `route` label.

export class RouteLatencyHistogram {
  private readonly routes = new Map<string, { buckets: Float64Array; sum: number; count: number }>();

  /** `bounds`: upper bounds in seconds, ascending (the +Inf bucket is implicit). */
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: readonly number[],
  ) {}

  observe(route: string, seconds: number): void {
    let series = this.routes.get(route);
    if (!series) {
      series = { buckets: new Float64Array(this.bounds.length + 1), sum: 0, count: 0 };
      this.routes.set(route, series);
    }
    let bucket = 0;
    while (bucket < this.bounds.length && seconds > this.bounds[bucket]!) bucket++;
    series.buckets[bucket]!++;
    series.sum += seconds;
    series.count++;
  }

  /** The histogram in the text exposition format, ending with a newline. */
  exposition(): string {
    const lines = [`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} histogram`];
    for (const [route, series] of this.routes) {
      const label = `route="${escapeLabel(route)}"`;
      let cumulative = 0;
      for (let bucket = 0; bucket <= this.bounds.length; bucket++) {
        cumulative += series.buckets[bucket]!;
        const le = bucket < this.bounds.length ? String(this.bounds[bucket]) : '+Inf';
        lines.push(`${this.name}_bucket{le="${le}",${label}} ${cumulative}`);
      }
      lines.push(`${this.name}_sum{${label}} ${series.sum}`, `${this.name}_count{${label}} ${series.count}`);
    }
    return `${lines.join('\n')}\n`;
  }
}

const escapeHelp = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
const escapeLabel = (text: string) => text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/"/g, '\\"');
