// The save decision: one event to reach the state asked for, none when the item is already in it.
import { describe, expect, it } from 'vitest';
import { decideSave } from '../../../server/lists/saved-item.ts';

const target = { type: 'bodega' as const, id: 4 };
const data = { user_id: 9, target_type: 'bodega', target_id: 4 };

describe('save decisions', () => {
  it('saves or unsaves an item that is in the other state', () => {
    expect(decideSave({ userId: 9, target, saved: true }, false)).toEqual([{ type: 'ItemSaved', data }]);
    expect(decideSave({ userId: 9, target, saved: false }, true)).toEqual([{ type: 'ItemUnsaved', data }]);
  });

  it('decides nothing when the item is already as asked', () => {
    expect(decideSave({ userId: 9, target, saved: true }, true)).toEqual([]);
    expect(decideSave({ userId: 9, target, saved: false }, false)).toEqual([]);
  });
});
