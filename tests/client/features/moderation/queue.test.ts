// The queue's pure parts: reasons in the product's words, most given first, and a decision's answer
// replacing its item in the page on screen.
import { describe, expect, it } from 'vitest';
import { withQueueItem } from '../../../../client/src/features/moderation/queue-cache.ts';
import { reasonCounts, type QueueItem } from '../../../../client/src/features/moderation/reasons.ts';

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
