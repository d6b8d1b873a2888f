// Whether a service the integration tests need can be used. Under CI=true an unreachable
// service fails the run (CI starts them); elsewhere its tests skip, with the reason printed once.
export function serviceCheck(name: string, url: string, probe: () => Promise<void>): () => Promise<string | undefined> {
  let result: Promise<string | undefined> | undefined;
  return () => {
    result ??= probe().then(
      () => undefined,
      (error: Error) => {
        const reason = `${name} at ${url} unreachable: ${error.message}`;
        if (process.env.CI === 'true') throw new Error(`${reason} (required under CI=true)`);
        console.warn(`skipping ${name} tests: ${reason}`);
        return reason;
      },
    );
    return result;
  };
}
