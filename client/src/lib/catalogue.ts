// The shapes of cats, bodegas, photos and reviews as the API sends them (see API.md, Shapes).
export type TargetType = 'cat' | 'bodega';

export type Photo = {
  id: number;
  filename: string;
  caption: string;
  is_primary: boolean;
  status: 'processing' | 'ready' | 'failed';
  url: string | null;
  thumb_url: string | null;
  width: number | null;
  height: number | null;
  uploaded_by: number | null;
  created_at: string;
};

export type CatSex = '' | 'Male' | 'Female' | 'Unknown';

export type CatSummary = {
  id: number;
  name: string;
  bodega_id: number;
  bodega_name: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  description: string;
  age: string;
  breed: string;
  sex: CatSex | string;
  personality: string;
  color: string;
  weight: string;
  is_friendly: boolean;
  rating: number;
  review_count: number;
  /** The primary photo's large variant, or null while it has no ready primary photo. */
  primary_photo: string | null;
  /** The same photo's small variant, for grids; null with primary_photo. */
  primary_thumb: string | null;
  created_by: number | null;
  created_at: string;
  distance?: number;
};

export type BodegaSummary = {
  id: number;
  name: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
  description: string;
  phone: string;
  hours: string;
  cat_count: number;
  rating: number;
  review_count: number;
  is_verified: boolean;
  /** The primary photo's large variant, or null while it has no ready primary photo. */
  primary_photo: string | null;
  /** The same photo's small variant, for grids; null with primary_photo. */
  primary_thumb: string | null;
  created_by: number | null;
  created_at: string;
  distance?: number;
};

type DetailFields = {
  creator_username: string | null;
  photos: Photo[];
  version: number;
  /** Whether the signed-in caller has saved it (false when signed out). */
  saved: boolean;
};
export type CatDetail = CatSummary & DetailFields;
export type BodegaDetail = BodegaSummary & DetailFields;

export type CatResponse = { cat: CatDetail; bodega: BodegaSummary };
export type BodegaResponse = { bodega: BodegaDetail; cats: CatSummary[] };

export type Review = {
  id: number;
  rating: number;
  comment: string;
  created_at: string;
  user: { id: number; username: string | null };
  cat_id: number | null;
  bodega_id: number | null;
};

export type Pagination = {
  page: number;
  per_page: number;
  total: number;
  pages: number;
  /** Search only: false when `total` is the server's estimate (many matches). */
  total_exact?: boolean;
};

/** The path segment the API uses for a target type (`/api/photos/cats/...`). */
export function targetPath(type: TargetType): 'cats' | 'bodegas' {
  return type === 'cat' ? 'cats' : 'bodegas';
}

/** Text limits the server enforces (characters), so inputs stop at the same place. */
export const TEXT_LIMITS = {
  name: 100,
  address: 200,
  description: 2000,
  hours: 200,
  breed: 100,
  personality: 100,
  age: 50,
  color: 50,
  weight: 50,
  phone: 40,
  comment: 2000,
  caption: 300,
} as const;
