// What the other features use of the saved lists: whether the signed-in user saved an item, and
// its toggle.
export { useSavedFlag, type SavedFlag } from './hooks/use-saved-flag.ts';
