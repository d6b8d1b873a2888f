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

  it('counts a failure that an earlier answer contradicted as nothing, so the next stalled query still begins the outage', async () => {
    const changes: AvailabilityChange[] = [];
    const guard = new QueryGuard({ capacity: 3, maxWaiting: 0, onChange: (change) => changes.push(change) });
    const stalled = () => {
      let fail!: () => void;
      const result = guard.run(() => new Promise<never>((_, reject) => (fail = () => reject(refused()))));
      return { result, fail };
    };
    const first = stalled(); // started before the answer below: its failure says nothing
    await guard.run(async () => 'answer');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = stalled(); // started after the last answer
    await new Promise((resolve) => setTimeout(resolve, 5));
    first.fail();
    await expect(first.result).rejects.toMatchObject({ reason: 'unreachable' });
    expect(guard.reachable).toBe(true);
    second.fail();
    await expect(second.result).rejects.toMatchObject({ reason: 'unreachable' });
    expect(guard.reachable).toBe(false);
    expect(changes.map((change) => change.reachable)).toEqual([false]);
  });

  it('lets the next trial through a trial interval after the last one ended, not after it began', async () => {
    const guard = new QueryGuard({ capacity: 2, maxWaiting: 2, trialIntervalMs: 50 });
    await expect(guard.run(() => Promise.reject(refused()))).rejects.toMatchObject({ reason: 'unreachable' });
    await new Promise((resolve) => setTimeout(resolve, 60));
    // The trial stalls longer than the interval, as on a database that accepts and never answers.
    const trial = guard.run(() => new Promise<never>((_, reject) => setTimeout(() => reject(refused()), 100)));
    await expect(guard.run(async () => 'not tried')).rejects.toThrow('refused without trying');
    await expect(trial).rejects.toMatchObject({ reason: 'unreachable' });
    await expect(guard.run(async () => 'not tried')).rejects.toThrow('refused without trying');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await guard.run(async () => 'tried')).toBe('tried');
    expect(guard.reachable).toBe(true);
  });
});
