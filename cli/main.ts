// Entry point of the operator CLI (npm run cli -- <command>, or the package's bin).
import { runCli } from './commands.ts';

process.exitCode = await runCli(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  isTTY: Boolean(process.stderr.isTTY),
  stderr: process.stderr,
});
