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

function state(row: PhotoRow | null): PhotoState {
  return { target, owner, photo: row };
}

describe('photo decisions', () => {
  const upload = {
    photoId: 20,
    filename: 'a.jpg',
    originalPath: 'originals/a.jpg',
    type: { mime: 'image/jpeg' as const, extension: 'jpg' },
    caption: 'Nap',
    makePrimary: true,
  };

  it('makes an upload primary only when the target’s creator asks', () => {
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
  });

  it('lets the uploader or the target’s creator change a photo, and no one else', () => {
    expect(decidePhoto({ type: 'SetPrimaryPhoto', photoId: 20, actorId: 2 }, state(photo()))).toEqual([
      { type: 'PhotoPrimarySet', data: ref },
    ]);
    expect(decidePhoto({ type: 'DeletePhoto', photoId: 20, actorId: 1 }, state(photo()))).toEqual([
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
    expect(() => decidePhoto({ type: 'SetPrimaryPhoto', photoId: 20, actorId: 2 }, failed)).toThrow(Conflict);
    expect(
      decidePhoto({ type: 'SetPrimaryPhoto', photoId: 20, actorId: 2 }, state(photo({ is_primary: true }))),
    ).toEqual([]);
  });
});
