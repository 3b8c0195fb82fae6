// How the cat and bodega screens name each kind of item, so the screens they share say it alike.
import type { IconName } from './Icon.tsx';
import type { TargetType } from '../lib/catalogue.ts';

type ItemWords = {
  noun: string;
  title: string;
  plural: 'cats' | 'bodegas';
  /** Its icon, which a missing photo of it shows too. */
  icon: Extract<IconName, 'cat' | 'store'>;
};

export const ITEM_WORDS: Record<TargetType, ItemWords> = {
  cat: { noun: 'cat', title: 'Cat', plural: 'cats', icon: 'cat' },
  bodega: { noun: 'bodega', title: 'Bodega', plural: 'bodegas', icon: 'store' },
};

/** The item's own page (`/cat/12`). */
export function itemPath(kind: TargetType, id: number): string {
  return `/${kind}/${id}`;
}
