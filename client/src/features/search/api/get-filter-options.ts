import { api } from '../../../lib/api.ts';

export type FilterOptions = { breeds: string[]; personalities: string[] };

export function getFilterOptions(): Promise<FilterOptions> {
  return api.get<FilterOptions>('/api/search/filters');
}
