import { ApiError, NETWORK_ERROR_MESSAGE } from '../../../lib/api.ts';

/** 'Failed to search cats: <server error>', the backend-not-available text, or '... Network error'. */
export function failureMessage(prefix: string, error: unknown): string {
  if (error instanceof ApiError) {
    return error.isNetworkError ? NETWORK_ERROR_MESSAGE : `${prefix}${error.message}`;
  }
  return `${prefix}Network error`;
}
