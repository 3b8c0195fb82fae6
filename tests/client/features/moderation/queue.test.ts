// The queue's pure parts: reasons in the product's words, most given first, and a decision's answer
// replacing its item in the page on screen, and how a fresh read of the queue meets the page shown.
import { describe, expect, it } from 'vitest';
import { withQueueItem } from '../../../../client/src/features/moderation/api/cache.ts';
import { reasonCounts, type QueueItem } from '../../../../client/src/features/moderation/reasons.ts';
import {
  adoptsQuietly,
  changeNotice,
  queueChange,
} from '../../../../client/src/features/moderation/use-live-queue.ts';

function item(fields: Partial<QueueItem>): QueueItem {
  return {
    target_type: 'review',
    target_id: 1,
    title: 'Rude words',
    url: '/cat/4',
    thumb_url: null,
    hidden: false,
    reports: 1,
    reasons: { spam: 1 },
    first_reported_at: '2026-11-24T10:00:00.000Z',
    last_reported_at: '2026-11-24T10:00:00.000Z',
    ...fields,
  };
}

describe('reasonCounts', () => {
  it('labels each reason and puts the most given first, ties by label', () => {
    expect(reasonCounts({ other: 1, not_a_cat: 3, spam: 1, wrong_info: 2 })).toEqual([
      { reason: 'not_a_cat', label: 'Not a cat', count: 3 },
      { reason: 'wrong_info', label: 'Wrong info', count: 2 },
      { reason: 'other', label: 'Other', count: 1 },
      { reason: 'spam', label: 'Spam', count: 1 },
    ]);
  });

  it('shows a reason it does not know by its name', () => {
    expect(reasonCounts({ mystery: 2 })).toEqual([{ reason: 'mystery', label: 'mystery', count: 2 }]);
  });
});

describe('withQueueItem', () => {
  it('replaces only the item of the same kind and id, keeping the order and the paging', () => {
    const page = {
      items: [item({ target_id: 1 }), item({ target_type: 'photo', target_id: 1 }), item({ target_id: 2 })],
      pagination: { page: 1, per_page: 20, total: 3, pages: 1 },
    };
    const decided = item({ target_id: 1, hidden: true, reports: 4 });
    const next = withQueueItem(page, decided);
    expect(next.items.map((i) => [i.target_type, i.target_id, i.hidden])).toEqual([
      ['review', 1, true],
      ['photo', 1, false],
      ['review', 2, false],
    ]);
    expect(next.items[0]).toBe(decided);
    expect(next.pagination).toBe(page.pagination);
  });
});

describe('a fresh read of the queue against the page on screen', () => {
  const pageOf = (...items: QueueItem[]) => ({
    items,
    pagination: { page: 1, per_page: 20, total: items.length, pages: 1 },
  });
  const a = item({ target_id: 1 });
  const b = item({ target_id: 2 });
  const c = item({ target_type: 'cat', target_id: 2 });

  it('replaces the page quietly when the same items come in the same order, counts changed', () => {
    expect(adoptsQuietly(pageOf(a, b), pageOf(item({ target_id: 1, reports: 3 }), b))).toBe(true);
  });

  it('replaces an empty page quietly: nothing moves under the reader', () => {
    expect(adoptsQuietly(pageOf(), pageOf(a))).toBe(true);
  });

  it('waits when items come, go or change places, or the total changes', () => {
    expect(adoptsQuietly(pageOf(a), pageOf(a, c))).toBe(false);
    expect(adoptsQuietly(pageOf(a, b), pageOf(a))).toBe(false);
    expect(adoptsQuietly(pageOf(a, b), pageOf(b, a))).toBe(false);
    const moreBeyond = { ...pageOf(a), pagination: { page: 1, per_page: 1, total: 2, pages: 2 } };
    expect(adoptsQuietly(pageOf(a), moreBeyond)).toBe(false);
  });

  it('counts new and gone items by kind and id, and words the notice', () => {
    expect(queueChange(pageOf(a, b), pageOf(c, a))).toEqual({ added: 1, removed: 1 });
    expect(changeNotice({ added: 1 })).toBe('1 new item in the queue.');
    expect(changeNotice({ added: 3 })).toBe('3 new items in the queue.');
    expect(changeNotice({ added: 0 })).toBe('The queue has changed.');
  });
});
