// The serving guard's view of an outage (prisma/query-guard.ts), with queries that are plain promises.
import { describe, expect, it } from 'vitest';
import { type AvailabilityChange, QueryGuard } from '../../prisma/query-guard.ts';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' });

describe('the query guard', () => {
  it('keeps an outage when a query that started before it succeeds, and ends it on an answer to one that started after', async () => {
    const changes: AvailabilityChange[] = [];
    const guard = new QueryGuard({ capacity: 2, maxWaiting: 2, trialIntervalMs: 0, onChange: (change) => changes.push(change) });
    let answerEarly!: (value: string) => void;
    const early = guard.run(() => new Promise<string>((resolve) => (answerEarly = resolve)));
    await expect(guard.run(() => Promise.reject(refused()))).rejects.toMatchObject({ reason: 'unreachable' });
    expect(guard.reachable).toBe(false);
    answerEarly('late answer');
    expect(await early).toBe('late answer');
    expect(guard.reachable).toBe(false);
    expect(changes.map((change) => change.reachable)).toEqual([false]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await guard.run(async () => 'answer')).toBe('answer');
    expect(guard.reachable).toBe(true);
    expect(changes.map((change) => change.reachable)).toEqual([false, true]);
  });
});
