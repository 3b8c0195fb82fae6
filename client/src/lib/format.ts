// Display rules for ratings, dates and ages shared by every screen.

/** Whole stars shown for a rating: the floor, kept within 0..5. */
export function starCount(rating: number | null | undefined): number {
  const value = Number(rating);
  if (!Number.isFinite(value)) return 0;
  return Math.min(5, Math.max(0, Math.floor(value)));
}

/** A rating as text with one decimal ("4.5", "0.0"). */
export function formatRating(rating: number | null | undefined): string {
  const value = Number(rating);
  return (Number.isFinite(value) ? value : 0).toFixed(1);
}

/** Long US date, e.g. "November 21, 2026" (in UTC, so the day never shifts by time zone). */
export function formatLongDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleDateString('en-US', {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    timeZone: 'UTC',
  });
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

function plural(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'} ago`;
}

/** 'Just now' under an hour, 'n hours ago' under a day, 'n days ago' under a week, else the date. */
export function formatRelativeTime(iso: string, now: Date | number = Date.now()): string {
  const then = new Date(iso);
  if (Number.isNaN(then.getTime())) return '';
  const elapsed = Math.max(0, (typeof now === 'number' ? now : now.getTime()) - then.getTime());
  if (elapsed < HOUR_MS) return 'Just now';
  if (elapsed < DAY_MS) return plural(Math.floor(elapsed / HOUR_MS), 'hour');
  if (elapsed < 7 * DAY_MS) return plural(Math.floor(elapsed / DAY_MS), 'day');
  return then.toLocaleDateString();
}

/** Distance in km as shown on result cards ("0.42 km"). */
export function formatDistance(km: number | null | undefined): string {
  if (km === null || km === undefined || !Number.isFinite(km)) return '';
  return `${km.toFixed(2)} km`;
}

/** '1 review' / '3 reviews'. */
export function formatReviewCount(count: number | null | undefined): string {
  const n = count ?? 0;
  return `${n} review${n === 1 ? '' : 's'}`;
}
