import { describe, expect, it } from 'vitest';
import { trimBoth, trimEnd } from '../../../src/core/command/tokens.js';

describe('trimEnd and trimBoth', () => {
  it('take the characters of the class off the end, or off both ends', () => {
    expect(trimEnd('12,50,;:', /[,;:]/)).toBe('12,50');
    expect(trimEnd(',,,', /[,]/)).toBe('');
    expect(trimEnd('lunch', /[,]/)).toBe('lunch');
    expect(trimBoth(' ,Trip to Rome; ', /[,;\s]/)).toBe('Trip to Rome');
    expect(trimBoth(', ;', /[,;\s]/)).toBe('');
  });
});
