import { describe, expect, it } from 'vitest';
import {
  bookingMarker,
  carriesMarker,
  notesOf,
  withMarker,
} from '../../../src/slack/booking/marker.js';

describe('the booking marker', () => {
  it('is the same for the same command and differs between commands', () => {
    const a = bookingMarker('command:T1:1.2.abc');
    expect(a).toMatch(/^Booked from Slack, ref [\w-]{16}$/);
    expect(bookingMarker('command:T1:1.2.abc')).toBe(a);
    expect(bookingMarker('command:T1:1.2.abd')).not.toBe(a);
    expect(bookingMarker('form:T1:1.2.abc')).not.toBe(a);
  });

  it('is found in notes in its own form or the older one, and only there', () => {
    const marker = bookingMarker('command:T1:1.2.abc');
    const hash = marker.slice(-16);
    expect(carriesMarker(`Lunch\n\n${marker}`, marker)).toBe(true);
    expect(carriesMarker(`Lunch\n\nsplit-ref:${hash}`, marker)).toBe(true);
    expect(carriesMarker(`Lunch\n\n${bookingMarker('command:T1:1.2.abd')}`, marker)).toBe(false);
    expect(carriesMarker(null, marker)).toBe(false);
  });

  it('goes after the notes, and is left out when the notes are shown again', () => {
    const marker = bookingMarker('form:T1:V1');
    expect(withMarker(undefined, marker)).toBe(marker);
    expect(withMarker('Thin crust', marker)).toBe(`Thin crust\n\n${marker}`);
    expect(notesOf(withMarker('Thin crust', marker))).toBe('Thin crust');
    expect(notesOf(marker)).toBe('');
    expect(notesOf(null)).toBe('');
    // Bookings made before the marker read as a sentence carry the older form.
    expect(notesOf('Thin crust\n\nsplit-ref:AbCdEfGh12345678')).toBe('Thin crust');
    // Notes a person wrote that merely mention a marker in passing are theirs.
    expect(notesOf(`see ${marker} above`)).toBe(`see ${marker} above`);
  });
});
