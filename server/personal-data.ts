// Every domain's part of what the product keeps about a person (accounts/personal-data.ts), for
// deleting an account (accounts/deletion.ts) and exporting it (accounts/export.ts): each domain
// that keeps something about a person adds its part here and nowhere else. Deletion erases the
// parts in this order (a person's reviews, then their photos), and the export shows them in it.
import type { AccountExportOf } from './accounts/export.ts';
import type { PersonalData } from './accounts/personal-data.ts';
import { cataloguePersonalData } from './catalogue/personal-data.ts';
import { listsPersonalData } from './lists/personal-data.ts';
import { moderationPersonalData } from './moderation/personal-data.ts';
import { photosPersonalData } from './photos/personal-data.ts';
import { reviewsPersonalData } from './reviews/personal-data.ts';

export const personalData = [
  reviewsPersonalData,
  photosPersonalData,
  listsPersonalData,
  moderationPersonalData,
  cataloguePersonalData,
] as const satisfies readonly PersonalData[];

/** Everything the product holds about one person, as `npm run account -- export` writes it. */
export type AccountExport = AccountExportOf<typeof personalData>;
