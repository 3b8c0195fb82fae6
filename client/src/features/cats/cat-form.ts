import type { CatDetail, CatSex } from '../../lib/catalogue.ts';
import type { CatEdit } from './api/update-cat.ts';

export const SEX_OPTIONS: readonly { value: CatSex; label: string }[] = [
  { value: '', label: 'Not specified' },
  { value: 'Male', label: 'Male' },
  { value: 'Female', label: 'Female' },
  { value: 'Unknown', label: 'Unknown' },
];

export const DELETE_CAT_CONFIRMATION =
  'Are you sure you want to delete this cat? This action cannot be undone.';

function asSex(value: string): CatSex {
  return SEX_OPTIONS.some((o) => o.value === value) ? (value as CatSex) : '';
}

/** The editable fields of a loaded cat. */
export function catEditOf(cat: CatDetail): CatEdit {
  return {
    name: cat.name,
    description: cat.description,
    age: cat.age,
    breed: cat.breed,
    sex: asSex(cat.sex),
    personality: cat.personality,
    color: cat.color,
    weight: cat.weight,
    is_friendly: cat.is_friendly,
  };
}
