// Inputs held to the text limits as the server counts them (contract/text-limits.ts): characters
// as a person sees them. The HTML maxlength attribute counts UTF-16 units instead, in which most
// emoji are two, so a comment of 1,500 emoji would have stopped at 1,000.
import type { ChangeEvent } from 'react';
import { clipToLimit } from '../../../contract/text-limits.ts';

export { characterCount } from '../../../contract/text-limits.ts';

/** An input's `onChange` that keeps at most `limit` characters of what is typed or pasted. */
export function limitedChange(limit: number | undefined, onChange: (value: string) => void) {
  return (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    onChange(limit === undefined ? event.target.value : clipToLimit(event.target.value, limit));
}
