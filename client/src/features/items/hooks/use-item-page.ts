// What a cat's or bodega's page keeps beside the item itself: its photos (kept current), whether
// the user saved it, and whether the user created it (and so may edit it).
import { useSavedFlag, type SavedFlag } from '../../saved/index.ts';
import type { BodegaDetail, CatDetail, TargetType } from '../../../lib/catalogue.ts';
import { useSession } from '../../auth/index.ts';
import { photoListOf, type PhotoList } from '../../photos/index.ts';
import { ITEM_WORDS } from '../../../components/item-kinds.ts';

export type ItemPage = { photos: PhotoList; saved: SavedFlag; canEdit: boolean };

export function useItemPage(kind: TargetType, item: CatDetail | BodegaDetail): ItemPage {
  const userId = useSession((s) => s.user?.id ?? null);
  const photos = photoListOf(item.photos);
  const saved = useSavedFlag({ kind: ITEM_WORDS[kind].plural, id: item.id, saved: item.saved });
  return { photos, saved, canEdit: userId !== null && userId === item.created_by };
}
