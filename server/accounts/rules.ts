// The rules a new account (and a new password) must meet, checked together so one 400 names every
// bad field in words a person can act on.
import { characterCount } from '../../contract/text-limits.ts';
import { PASSWORD_MAX, PASSWORD_MIN, type RegisterBody } from '../../contract/users.ts';
import { Invalid } from '../errors.ts';
import { hasInvisibleCharacters } from '../http/text.ts';

const USERNAME_CHARS = /^[A-Za-z0-9_.-]+$/;
const EMAIL_MAX = 254;
// A practical address check (the same shape as the common "email" format): a dotted local part,
// an @, and a domain of dot-separated labels.
const EMAIL =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

export type Registration = RegisterBody;

function usernameProblem(username: string): string | null {
  // Direction controls count among them: unlike other text, a username holding one is refused
  // rather than stored without it, as it is what its owner signs in with.
  if (hasInvisibleCharacters(username))
    return 'Username must not contain invisible characters (such as zero-width spaces or direction marks)';
  const length = characterCount(username, 30);
  if (length < 3 || length > 30) return 'Username must be 3 to 30 characters long';
  if (!USERNAME_CHARS.test(username))
    return 'Username may contain only letters, digits, underscores (_), dots (.) and hyphens (-)';
  return null;
}

function emailProblem(email: string): string | null {
  if (email.length === 0) return 'Email is required';
  if (email.length > EMAIL_MAX || !EMAIL.test(email)) return 'Please enter a valid email address';
  return null;
}

function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return `Password must be at least ${PASSWORD_MIN} characters long`;
  if (length > PASSWORD_MAX) return `Password must be at most ${PASSWORD_MAX} characters long`;
  return null;
}

/**
 * Composes (NFC) and trims the names, never the password, before any rule or the duplicate check
 * sees them, and throws Invalid naming every field that breaks a rule.
 */
export function checkRegistration(input: Registration): Registration {
  const candidate = {
    username: input.username.normalize('NFC').trim(),
    email: input.email.normalize('NFC').trim(),
    password: input.password,
  };
  const problems = Object.entries({
    username: usernameProblem(candidate.username),
    email: emailProblem(candidate.email),
    password: passwordProblem(candidate.password),
  }).filter((entry): entry is [string, string] => entry[1] !== null);
  if (problems.length > 0) throw new Invalid(problems[0]![1], Object.fromEntries(problems));
  return candidate;
}

/** A password replacing another follows the registration rules; `field` names it in the 400. */
export function checkNewPassword(password: string, field: string): string {
  const problem = passwordProblem(password);
  if (problem) throw new Invalid(problem, { [field]: problem });
  return password;
}
