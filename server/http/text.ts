// What the server does to the text people type before it stores it, for every domain alike: the
// Unicode form it is kept in, the characters it drops, and what counts as blank.
import { lengthProblem } from '../../contract/text-limits.ts';
import { Invalid } from '../errors.ts';
import { isStorable } from './schemas.ts';

// The controls that change the direction of the text around them (embeddings, overrides, isolates,
// and the left-to-right, right-to-left and Arabic letter marks). They are removed, never refused:
// they cannot be seen, so a person who pasted them could not find what to take out of a refused
// text, and without them a name or a comment still reads the same in its own line, while with
// them "\u202Egnp.exe" is shown as "exe.png" and an unclosed override turns the text shown after it
// around. Usernames, which take letters, digits and _ . - alone, refuse them with the rest.
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

// What shows nothing on a page: white space; format and other default-ignorable characters (the
// zero-width space and joiners, the byte order mark, the Hangul fillers, variation selectors);
// other control characters; combining marks with no letter under them; and the braille blank,
// which is drawn as an empty cell.
const VISIBLE = /[^\p{White_Space}\p{Default_Ignorable_Code_Point}\p{Cc}\p{Cf}\p{Mn}\p{Me}\u2800]/u;

// Characters no username may hold (invisible ones): named in their own message, since the general
// one ("letters, digits...") would leave a person looking at a name that seems to have none.
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}\u2800]/u;

// Control characters a text of several lines keeps: tabs and line feeds (a carriage return, alone
// or before a line feed, is read as one). Every other one (a bell, an escape that starts a terminal sequence,
// a form feed, the C1 controls) does nothing a reader should see and is removed.
// eslint-disable-next-line no-control-regex -- finding control characters is what it is for
const STRAY_CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

// What breaks a line, or would in some viewer, once normalized: kept out of one-line text.
const LINE_BREAKS = /[\n\t\u2028\u2029]+/g;

/**
 * `text` in the form it is stored and compared in: composed (NFC, so "é" typed as e and an accent
 * is the same text as "é" typed as one), without direction controls and stray control characters.
 */
export function normalizeText(text: string): string {
  return text.normalize('NFC').replace(/\r\n?/g, '\n').replace(BIDI_CONTROLS, '').replace(STRAY_CONTROLS, '');
}

/**
 * One-line text (a name, an address, a phone number) as it is stored: normalized, with every run of
 * line breaks and tabs turned into one space, so a pasted name cannot span several lines of a list
 * or a notification.
 */
export function normalizeLine(text: string): string {
  return normalizeText(text).replace(LINE_BREAKS, ' ');
}

/** Whether `text` shows anything at all (one letter, digit, mark of punctuation or symbol). */
export function hasVisibleText(text: string): boolean {
  return VISIBLE.test(text);
}

/** Whether `text` holds an invisible character (zero-width, format, filler, braille blank). */
export function hasInvisibleCharacters(text: string): boolean {
  return INVISIBLE.test(text);
}

/**
 * Optional free text (a comment, a caption, a note) as it is stored: refused (400 naming `field`)
 * when the database cannot hold it or when it is longer than `limit` characters once normalized
 * and trimmed; text that shows nothing is stored as empty, as blank text is.
 */
export function cleanFreeText(field: string, raw: string, limit?: number): string {
  const refuse = (message: string) => new Invalid(`${field} ${message}`, { [field]: message });
  if (!isStorable(raw)) throw refuse('contains characters that are not allowed');
  const text = normalizeText(raw).trim();
  const tooLong = limit === undefined ? null : lengthProblem(text, limit);
  if (tooLong) throw refuse(tooLong);
  return hasVisibleText(text) ? text : '';
}
