// The save decision: one event to reach the state asked for, none when the item is already in it;
// an item hidden from the reader is missing to them, but their own save of it can still go.
import { describe, expect, it } from 'vitest';
import { NotFound } from '../../../server/errors.ts';
import { decideSave } from '../../../server/lists/saved-item.ts';

const target = { type: 'bodega' as const, id: 4 };
const data = { user_id: 9, target_type: 'bodega', target_id: 4 };

describe('save decisions', () => {
  it('saves or unsaves an item that is in the other state', () => {
    const shown = true;
    expect(decideSave({ userId: 9, target, saved: true }, { savedNow: false, shown })).toEqual([
      { type: 'ItemSaved', data },
    ]);
    expect(decideSave({ userId: 9, target, saved: false }, { savedNow: true, shown })).toEqual([
      { type: 'ItemUnsaved', data },
    ]);
  });

  it('decides nothing when the item is already as asked', () => {
    expect(decideSave({ userId: 9, target, saved: true }, { savedNow: true, shown: true })).toEqual([]);
    expect(decideSave({ userId: 9, target, saved: false }, { savedNow: false, shown: true })).toEqual([]);
  });

  it('answers 404 for a hidden item, as for a missing one, except to unsave a save made before', () => {
    const missing = new NotFound('Bodega not found');
    const hidden = { shown: false };
    expect(() => decideSave({ userId: 9, target, saved: true }, { ...hidden, savedNow: false })).toThrow(
      missing,
    );
    expect(() => decideSave({ userId: 9, target, saved: true }, { ...hidden, savedNow: true })).toThrow(
      missing,
    );
    expect(() => decideSave({ userId: 9, target, saved: false }, { ...hidden, savedNow: false })).toThrow(
      missing,
    );
    expect(decideSave({ userId: 9, target, saved: false }, { ...hidden, savedNow: true })).toEqual([
      { type: 'ItemUnsaved', data },
    ]);
  });
});
