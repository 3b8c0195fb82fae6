export const MIN_PASSWORD_LENGTH = 6;

/** The first rule a new password breaks, in the product's order, or null when it is fine. */
export function registrationProblem(password: string, confirmPassword: string): string | null {
  if (password !== confirmPassword) return 'Passwords do not match';
  if (password.length < MIN_PASSWORD_LENGTH) return 'Password must be at least 6 characters long';
  return null;
}
