import { defineConfig } from 'prisma/config';

// `env("DATABASE_URL")` throws when the variable is unset, even for `prisma generate`;
// the embedded PGlite default has no URL, so fall back to a placeholder that is never dialled.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://placeholder@localhost:5432/placeholder' },
});
