import { describe, expect, it } from 'vitest';
import { deadline } from '../../src/service/deadline.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('deadline', () => {
  it('aborts its signal with a TimeoutError once the time is up', async () => {
    const limit = deadline(5);
    expect(limit.signal.aborted).toBe(false);
    await sleep(30);
    expect(limit.signal.aborted).toBe(true);
    expect(limit.signal.reason).toBeInstanceOf(DOMException);
    expect((limit.signal.reason as DOMException).name).toBe('TimeoutError');
  });

  it('never aborts once cleared', async () => {
    const limit = deadline(5);
    limit.clear();
    await sleep(30);
    expect(limit.signal.aborted).toBe(false);
  });
});
