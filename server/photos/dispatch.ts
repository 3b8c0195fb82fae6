// Photo events that become photos jobs, keyed by the event's position so a re-dispatch is a no-op.
// The job brings the photo's files in line with the log: an upload gets its variants, a deleted
// photo (on its own, or with its cat or bodega) loses its original and variants.
import { jobId, type DispatchRule } from '../../workers/dispatcher.ts';

export const photoUploadedRule: DispatchRule<'PhotoUploaded'> = {
  type: 'PhotoUploaded',
  jobs: (event) => [{ queue: 'photos', id: jobId(event, 'photos'), data: { photo_id: event.data.photo_id } }],
};

export const photoDeletedRule: DispatchRule<'PhotoDeleted'> = {
  type: 'PhotoDeleted',
  jobs: (event) => [{ queue: 'photos', id: jobId(event, 'photos'), data: { photo_id: event.data.photo_id } }],
};
