import { z } from 'zod';

const path = z.string().regex(/^\/[A-Za-z0-9._/-]*$/, 'must be a path such as /healthz');

export const observabilityOptions = z
  .object({
    /** Liveness probe: the process serves. @default "/healthz" */
    healthPath: path.default('/healthz'),
    /** Readiness probe: the database and the plugins' dependencies answer. @default "/readyz" */
    readyPath: path.default('/readyz'),
    /** Prometheus metrics; open unless METRICS_TOKEN is set. @default "/metrics" */
    metricsPath: path.default('/metrics'),
  })
  .strict();
