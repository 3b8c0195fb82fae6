// The photo decisions, given the target's row and the photo's.
import { describe, expect, it } from 'vitest';
import type { PhotoRow } from '../../../server/db/schema.ts';
import { Conflict, Forbidden, NotFound } from '../../../server/errors.ts';
import { decidePhoto, type PhotoState } from '../../../server/photos/photo.ts';

const target = { type: 'cat' as const, id: 5 };
const owner = { id: 5, created_by: 1, hidden: false };
const ref = { photo_id: 20, target_type: 'cat', target_id: 5 };

function photo(fields: Partial<PhotoRow> = {}): PhotoRow {
  return {
    id: 20,
    target_type: 'cat',
    target_id: 5,
    uploaded_by: 2,
    filename: 'a.jpg',
    original_path: 'originals/a.jpg',
    mime_type: 'image/jpeg',
    caption: '',
    status: 'ready',
    is_primary: false,
    width: 10,
    height: 10,
    thumb_width: 10,
    hidden: false,
    thumb_height: 10,
    created_at: new Date(0),
    ...fields,
  };
}

function state(row: PhotoRow | null, hidden = false): PhotoState {
  return { target, owner: { ...owner, hidden }, photo: row };
}

const member = 'member' as const;

describe('photo decisions', () => {
  const upload = {
    photoId: 20,
    filename: 'a.jpg',
    originalPath: 'originals/a.jpg',
    type: { mime: 'image/jpeg' as const, extension: 'jpg' },
    caption: 'Nap',
    makePrimary: true,
    uploaderRole: member,
  };

  it('makes an upload primary only when the target’s creator or a moderator asks', () => {
    const byOwner = decidePhoto({ type: 'UploadPhoto', photo: { ...upload, uploadedBy: 1 } }, state(null));
    const byOther = decidePhoto({ type: 'UploadPhoto', photo: { ...upload, uploadedBy: 2 } }, state(null));
    expect(byOwner).toEqual([
      {
        type: 'PhotoUploaded',
        data: {
          ...ref,
          uploaded_by: 1,
          filename: 'a.jpg',
          original_path: 'originals/a.jpg',
          mime_type: 'image/jpeg',
          caption: 'Nap',
          make_primary: true,
        },
      },
    ]);
    expect(byOther[0]!.type === 'PhotoUploaded' && byOther[0]!.data.make_primary).toBe(false);
    const byModerator = decidePhoto(
      { type: 'UploadPhoto', photo: { ...upload, uploadedBy: 3, uploaderRole: 'moderator' } },
      state(null),
    );
    expect(byModerator[0]!.type === 'PhotoUploaded' && byModerator[0]!.data.make_primary).toBe(true);
  });

  it('lets the target’s creator or a moderator choose the primary photo; not its uploader (403)', () => {
    const primary = (actorId: number, actorRole: 'member' | 'moderator' = member) =>
      ({ type: 'SetPrimaryPhoto', photoId: 20, actorId, actorRole }) as const;
    expect(decidePhoto(primary(1), state(photo()))).toEqual([{ type: 'PhotoPrimarySet', data: ref }]);
    expect(decidePhoto(primary(3, 'moderator'), state(photo()))).toEqual([
      { type: 'PhotoPrimarySet', data: ref },
    ]);
    expect(() => decidePhoto(primary(2), state(photo()))).toThrow(Forbidden);
    expect(() => decidePhoto(primary(3), state(photo()))).toThrow(Forbidden);
    // Refused even when nothing would change: the answer does not depend on which photo is primary.
    expect(() => decidePhoto(primary(2), state(photo({ is_primary: true })))).toThrow(Forbidden);
    // An item whose creator is gone: moderators only.
    const orphan: PhotoState = { target, owner: { ...owner, created_by: null }, photo: photo() };
    expect(() => decidePhoto(primary(2), orphan)).toThrow(Forbidden);
    expect(decidePhoto(primary(3, 'moderator'), orphan)).toHaveLength(1);
    const orphanUpload = { ...upload, uploadedBy: 2 };
    const uploaded = decidePhoto({ type: 'UploadPhoto', photo: orphanUpload }, { ...orphan, photo: null });
    expect(uploaded[0]!.type === 'PhotoUploaded' && uploaded[0]!.data.make_primary).toBe(false);
  });

  it('lets the uploader or the target’s creator delete a photo, and no one else', () => {
    expect(decidePhoto({ type: 'DeletePhoto', photoId: 20, actorId: 1 }, state(photo()))).toEqual([
      { type: 'PhotoDeleted', data: ref },
    ]);
    expect(decidePhoto({ type: 'DeletePhoto', photoId: 20, actorId: 2 }, state(photo()))).toEqual([
      { type: 'PhotoDeleted', data: ref },
    ]);
    expect(() => decidePhoto({ type: 'DeletePhoto', photoId: 20, actorId: 3 }, state(photo()))).toThrow(
      Forbidden,
    );
  });

  it('404s a photo of another target or none, and refuses a failed photo as primary', () => {
    const elsewhere = state(photo({ target_id: 6 }));
    expect(() => decidePhoto({ type: 'DeletePhoto', photoId: 20, actorId: 2 }, elsewhere)).toThrow(NotFound);
    expect(() => decidePhoto({ type: 'DeletePhoto', photoId: 20, actorId: 2 }, state(null))).toThrow(
      NotFound,
    );
    const failed = state(photo({ status: 'failed' }));
    expect(() =>
      decidePhoto({ type: 'SetPrimaryPhoto', photoId: 20, actorId: 1, actorRole: member }, failed),
    ).toThrow(Conflict);
    expect(
      decidePhoto(
        { type: 'SetPrimaryPhoto', photoId: 20, actorId: 1, actorRole: member },
        state(photo({ is_primary: true })),
      ),
    ).toEqual([]);
  });

  it('answers a hidden target or photo as a missing one to who may not see it', () => {
    const missingCat = new NotFound('Cat not found');
    const byOther = { type: 'UploadPhoto' as const, photo: { ...upload, uploadedBy: 2 } };
    expect(() => decidePhoto(byOther, state(null, true))).toThrow(missingCat);
    expect(decidePhoto({ ...byOther, photo: { ...upload, uploadedBy: 1 } }, state(null, true))).toHaveLength(
      1,
    );
    const byModerator = { ...byOther, photo: { ...byOther.photo, uploaderRole: 'moderator' as const } };
    expect(decidePhoto(byModerator, state(null, true))).toHaveLength(1);

    const primary = (actorId: number, role: 'member' | 'moderator' = member) =>
      ({ type: 'SetPrimaryPhoto', photoId: 20, actorId, actorRole: role }) as const;
    expect(() => decidePhoto(primary(2), state(photo(), true))).toThrow(missingCat);
    expect(decidePhoto(primary(1), state(photo(), true))).toHaveLength(1);
    // A hidden photo is missing to all but its uploader and moderators, the item's creator too.
    const hiddenPhoto = state(photo({ hidden: true }));
    expect(() => decidePhoto(primary(1), hiddenPhoto)).toThrow(new NotFound('Photo not found'));
    expect(() => decidePhoto(primary(3), hiddenPhoto)).toThrow(new NotFound('Photo not found'));
    // Deleting only takes away: the creator may still remove a hidden photo of their item.
    expect(decidePhoto({ type: 'DeletePhoto', photoId: 20, actorId: 1 }, hiddenPhoto)).toHaveLength(1);
  });
});
