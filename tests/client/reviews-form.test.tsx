import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import toast from 'react-hot-toast/headless';
import { Toaster } from '../../client/src/components/Toaster.tsx';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../client/src/features/auth/stores/session.ts';
import { ReviewForm } from '../../client/src/features/reviews/components/ReviewForm.tsx';
import { NO_REVIEWS, ReviewList } from '../../client/src/features/reviews/components/ReviewList.tsx';
import type { Review } from '../../client/src/lib/catalogue.ts';
import { scriptedFetch } from './helpers.ts';
import { QueryProvider } from './query.tsx';

const alice = { id: 7, username: 'alice' };
const posted: Review = {
  id: 31,
  rating: 3,
  comment: 'Sleeps on the bread.',
  created_at: '2026-11-21T20:48:15.123Z',
  user: alice,
  cat_id: 12,
  bodega_id: null,
};

function renderForm(props: Partial<Parameters<typeof ReviewForm>[0]> = {}) {
  const onSubmitted = vi.fn();
  const onCancel = vi.fn();
  render(
    <QueryProvider>
      <ReviewForm targetType="cat" targetId={12} onSubmitted={onSubmitted} onCancel={onCancel} {...props} />
      <Toaster />
    </QueryProvider>,
  );
  return { onSubmitted, onCancel };
}

function star(n: number): HTMLInputElement {
  return screen.getByLabelText(n === 1 ? '1 star' : `${n} stars`) as HTMLInputElement;
}

const comment = () => screen.getByLabelText('Comment') as HTMLTextAreaElement;

beforeEach(() => useSession.setState({ user: alice, token: 't', loading: false }));
afterEach(() => {
  cleanup();
  act(() => toast.remove());
  vi.unstubAllGlobals();
});

describe('the review form', () => {
  it('starts at five stars with an empty comment and the inviting placeholder', () => {
    renderForm();
    expect(star(5).checked).toBe(true);
    for (const n of [1, 2, 3, 4]) expect(star(n).checked).toBe(false);
    expect(comment().value).toBe('');
    expect(comment().placeholder).toBe('Share your experience with this cat...');
    expect(screen.getByRole('button', { name: 'Submit Review' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Cancel' })).toBeTruthy();
  });

  it('invites bodega reviews in its own words', () => {
    renderForm({ targetType: 'bodega' });
    expect(comment().placeholder).toBe('Share your experience with this bodega...');
  });

  it('sends the chosen rating and comment, confirms, and resets to five stars', async () => {
    const { sent } = scriptedFetch(() => ({ status: 201, body: { review: posted } }));
    const { onSubmitted } = renderForm();
    fireEvent.click(star(3));
    fireEvent.change(comment(), { target: { value: '  Sleeps on the bread.  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit Review' }));

    expect(await screen.findByText('Review submitted successfully')).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      url: '/api/reviews',
      method: 'POST',
      body: { cat_id: 12, rating: 3, comment: 'Sleeps on the bread.' },
    });
    expect(onSubmitted).toHaveBeenCalledWith(posted);
    expect(star(5).checked).toBe(true);
    expect(comment().value).toBe('');
  });

  it('targets a bodega by bodega_id', async () => {
    const { sent } = scriptedFetch(() => ({
      status: 201,
      body: { review: { ...posted, cat_id: null, bodega_id: 4 } },
    }));
    renderForm({ targetType: 'bodega', targetId: 4 });
    fireEvent.click(screen.getByRole('button', { name: 'Submit Review' }));
    await screen.findByText('Review submitted successfully');
    expect(sent[0]?.body).toEqual({ bodega_id: 4, rating: 5, comment: '' });
  });

  it('disables the buttons while the review is being sent', async () => {
    scriptedFetch(() => 'never');
    renderForm();
    fireEvent.click(screen.getByRole('button', { name: 'Submit Review' }));
    const busy = await screen.findByRole('button', { name: 'Submitting...' });
    expect((busy as HTMLButtonElement).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Cancel' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("shows the server's error and keeps what was written", async () => {
    scriptedFetch(() => ({
      status: 409,
      body: { error: 'You have already reviewed this cat', code: 'conflict' },
    }));
    const { onSubmitted } = renderForm();
    fireEvent.change(comment(), { target: { value: 'Again!' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit Review' }));
    expect(await screen.findByText('You have already reviewed this cat')).toBeTruthy();
    expect(onSubmitted).not.toHaveBeenCalled();
    expect(comment().value).toBe('Again!');
  });

  it("falls back to 'Failed to submit review' when the server gives no reason", async () => {
    scriptedFetch(() => ({ status: 502 }));
    renderForm();
    fireEvent.click(screen.getByRole('button', { name: 'Submit Review' }));
    expect(await screen.findByText('Failed to submit review')).toBeTruthy();
  });

  it('asks a signed-out visitor to log in and sends nothing', async () => {
    useSession.setState({ user: null, token: null });
    const { sent } = scriptedFetch(() => ({ status: 201, body: { review: posted } }));
    renderForm();
    fireEvent.click(screen.getByRole('button', { name: 'Submit Review' }));
    expect(await screen.findByText('Please log in to leave a review')).toBeTruthy();
    expect(sent).toHaveLength(0);
  });

  it('Cancel resets the form and closes it', () => {
    const { onCancel } = renderForm();
    fireEvent.click(star(2));
    fireEvent.change(comment(), { target: { value: 'draft' } });
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
    expect(star(5).checked).toBe(true);
    expect(comment().value).toBe('');
  });
});

describe('the review list', () => {
  it('invites the first review when there is none', () => {
    render(<ReviewList reviews={[]} />);
    expect(screen.getByText(NO_REVIEWS).textContent).toBe('No reviews yet. Be the first to review!');
  });

  it('shows username, stars, long US date and comment', async () => {
    render(<ReviewList reviews={[posted]} />);
    expect(screen.getByText('alice')).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Rated 3.0 out of 5' })).toBeTruthy();
    expect(screen.getByText('November 21, 2026')).toBeTruthy();
    await waitFor(() => expect(screen.getByText('Sleeps on the bread.')).toBeTruthy());
  });
});
