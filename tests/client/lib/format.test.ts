import { describe, expect, it } from 'vitest';
import {
  formatDistance,
  formatLongDate,
  formatRating,
  formatRelativeTime,
  formatReviewCount,
  starCount,
} from '../../../client/src/lib/format.ts';

describe('star display', () => {
  it('shows the floor of the rating as whole stars', () => {
    expect(starCount(4.9)).toBe(4);
    expect(starCount(4)).toBe(4);
    expect(starCount(0.5)).toBe(0);
    expect(starCount(5)).toBe(5);
  });

  it('keeps stars within 0 to 5 and treats a missing rating as none', () => {
    expect(starCount(7)).toBe(5);
    expect(starCount(-1)).toBe(0);
    expect(starCount(null)).toBe(0);
    expect(starCount(Number.NaN)).toBe(0);
  });

  it('writes the rating with one decimal', () => {
    expect(formatRating(4)).toBe('4.0');
    expect(formatRating(3.25)).toBe('3.3');
    expect(formatRating(0)).toBe('0.0');
    expect(formatRating(undefined)).toBe('0.0');
  });
});

describe('relative time of a recently viewed item', () => {
  const now = new Date('2026-11-21T12:00:00.000Z');
  const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const HOUR = 3_600_000;

  it("says 'Just now' under an hour", () => {
    expect(formatRelativeTime(ago(0), now)).toBe('Just now');
    expect(formatRelativeTime(ago(59 * 60_000), now)).toBe('Just now');
  });

  it('counts hours under a day, singular and plural', () => {
    expect(formatRelativeTime(ago(HOUR), now)).toBe('1 hour ago');
    expect(formatRelativeTime(ago(3 * HOUR + 10), now)).toBe('3 hours ago');
    expect(formatRelativeTime(ago(23 * HOUR + 59 * 60_000), now)).toBe('23 hours ago');
  });

  it('counts days under a week, singular and plural', () => {
    expect(formatRelativeTime(ago(24 * HOUR), now)).toBe('1 day ago');
    expect(formatRelativeTime(ago(6 * 24 * HOUR), now)).toBe('6 days ago');
  });

  it("shows the date in the viewer's locale format from a week on", () => {
    const iso = ago(7 * 24 * HOUR);
    expect(formatRelativeTime(iso, now)).toBe(new Date(iso).toLocaleDateString());
  });

  it('treats a time slightly in the future (clock skew) as just now', () => {
    expect(formatRelativeTime(new Date(now.getTime() + 5000).toISOString(), now)).toBe('Just now');
  });
});

describe('other display helpers', () => {
  it('writes long US dates', () => {
    expect(formatLongDate('2026-11-21T20:48:15.123Z')).toBe('November 21, 2026');
    expect(formatLongDate('not a date')).toBe('');
  });

  it('writes distances in km and review counts', () => {
    expect(formatDistance(0.4)).toBe('0.40 km');
    expect(formatDistance(undefined)).toBe('');
    expect(formatReviewCount(1)).toBe('1 review');
    expect(formatReviewCount(0)).toBe('0 reviews');
  });
});
