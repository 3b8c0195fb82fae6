// A person's photos and upload counts, for their account's deletion and export
// (accounts/personal-data.ts).
import type { Erasure } from '../accounts/index.ts';
import type { Kysely } from 'kysely';
import type { DB, PhotoRow } from '../db/schema.ts';
import { targetPhotosLock } from '../events/locks.ts';
import type { Services } from '../services.ts';
import { deletePhoto } from './commands.ts';
import { deletePhotoObjects } from './objects.ts';
import { forgetUploads } from './quota.ts';
import { toPhoto } from './read.ts';

export const photosPersonalData = {
  /**
   * Each photo leaves the log as its uploader's own deletion would (its PhotoDeleted dispatches the
   * job that removes its files, should this process stop before it does); its upload counts go.
   */
  async erase({ tx, store, userId, metadata }: Erasure) {
    const photos = await tx.trx
      .selectFrom('photos')
      .select(['id', 'target_type', 'target_id'])
      .where('uploaded_by', '=', userId)
      .orderBy('id')
      .execute();
    const targets = photos.map((photo) => ({ type: photo.target_type, id: Number(photo.target_id) }));
    // The photo locks of every target at once, in their order, before the first deletion takes one.
    await tx.lock(targets.map(targetPhotosLock));
    const deleted: PhotoRow[] = [];
    for (const [i, photo] of photos.entries()) {
      const change = { target: targets[i]!, photoId: Number(photo.id), actorId: userId };
      deleted.push(await tx.run(deletePhoto(store, change, metadata)));
    }
    await forgetUploads(tx.trx, userId);
    return {
      removed: { photos: deleted.length },
      afterCommit: async ({ photoStorage, logger }: Services) => {
        await Promise.all(deleted.map((photo) => deletePhotoObjects(photoStorage, photo, logger)));
      },
    };
  },

  async export(trx: Kysely<DB>, userId: number) {
    const photos = await trx
      .selectFrom('photos')
      .selectAll()
      .where('uploaded_by', '=', userId)
      .orderBy('id')
      .execute();
    const uploads = await trx
      .selectFrom('photo_upload_log')
      .select((eb) => eb.ref('uploaded_at').$castTo<Date>().as('uploaded_at'))
      .where('user_id', '=', userId)
      .orderBy('uploaded_at')
      .execute();
    return {
      photos: photos.map((row) => {
        const { id, caption, status, is_primary, url, thumb_url, created_at } = toPhoto(row);
        return {
          id,
          target_type: row.target_type,
          target_id: Number(row.target_id),
          caption,
          status,
          is_primary,
          hidden: row.hidden,
          url,
          thumb_url,
          /** Under UPLOAD_DIR, only until processing ends (it may carry the camera's GPS position). */
          original_path: row.status === 'ready' ? null : row.original_path,
          created_at,
        };
      }),
      /** Accepted uploads still counted against the upload limits (kept a day). */
      upload_times: uploads.map((u) => new Date(u.uploaded_at).toISOString()),
    };
  },
};
