import { z } from 'zod';

export const errorShapingOptions = z
  .object({
    /** Message of 500 responses (the cause goes to the log only). @default "Internal server error" */
    internalErrorMessage: z.string().min(1).default('Internal server error'),
  })
  .strict();

export type ErrorShapingOptions = z.infer<typeof errorShapingOptions>;
