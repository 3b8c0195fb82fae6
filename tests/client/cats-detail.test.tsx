import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../client/src/features/auth/stores/session.ts';
import CatDetailPage from '../../client/src/features/cats/routes/CatDetailPage.tsx';
import { useLiveStore } from '../../client/src/features/live/store.ts';
import { CREATOR, detailOf, SUNNY_DELI, WHISKERS } from './fixtures.ts';
import { cleanUpScreen, fakeLiveStream, renderItemPage, type PartialResponder } from './screens.tsx';

const photo = {
  id: 50,
  filename: 'p50',
  caption: 'On the counter',
  is_primary: true,
  status: 'ready' as const,
  url: '/uploads/cats/p50_large.webp',
  thumb_url: '/uploads/cats/p50_thumb.webp',
  width: 1280,
  height: 960,
  uploaded_by: CREATOR.id,
  created_at: '2026-11-20T10:00:00.000Z',
};
const cat = {
  ...detailOf(WHISKERS, 2),
  color: '',
  is_friendly: false,
  rating: 3.75,
  review_count: 4,
  primary_photo: photo.url,
  primary_thumb: photo.thumb_url,
  photos: [photo],
};
const bodega = SUNNY_DELI;

let live: ReturnType<typeof fakeLiveStream>;

/** Bob's review of the cat, as the live stream announces it. */
const purrfect = {
  id: 9,
  target_type: 'cat',
  target_id: 12,
  cat_id: 12,
  bodega_id: null,
  rating: 5,
  comment: 'Purrfect.',
  created_at: '2026-11-21T20:00:00.000Z',
  user: { id: 8, username: 'bob' },
};

const renderPage = (respond?: PartialResponder) =>
  renderItemPage('cat', 12, <CatDetailPage />, { cat, bodega }, respond);

beforeEach(() => {
  live = fakeLiveStream('connecting');
  useSession.setState({ user: null, token: null, loading: false });
});
afterEach(cleanUpScreen);

describe('the cat page', () => {
  it('shows the loading state, then every detail', async () => {
    renderPage();
    expect(screen.getByText('Loading cat details...')).toBeTruthy();
    await screen.findByRole('heading', { level: 1, name: 'Whiskers' });
    const hero = screen.getByRole('heading', { level: 1 }).closest('article')!;
    expect(within(hero).getByText('3.8')).toBeTruthy();
    expect(
      within(hero).getByRole('img', { name: 'Rated 3.8 out of 5' }).querySelectorAll('.star--on'),
    ).toHaveLength(3);
    expect(within(hero).getByText('(4 reviews)')).toBeTruthy();
    const img = within(hero).getByRole('img', { name: 'On the counter' });
    expect(img.getAttribute('src')).toBe(photo.url);
    expect(img.getAttribute('width')).toBe('1280');
    const details = screen.getByRole('region', { name: 'About Whiskers' });
    expect(within(details).getByText('Guards the bread.')).toBeTruthy();
    expect(within(details).getByText('Friendly').nextSibling?.textContent).toBe('No');
    expect(within(details).getByText('Color').nextSibling?.textContent).toBe('Not specified');
    const info = screen.getByRole('region', { name: 'Bodega Information' });
    for (const text of ['Sunny Deli', 'Corner shop.', '212-555-0100', '24/7', 'Verified'])
      expect(within(info).getByText(text)).toBeTruthy();
    expect(within(info).getByRole('link', { name: 'View Bodega' }).getAttribute('href')).toBe('/bodega/4');
    const quick = screen.getByRole('region', { name: 'Quick Actions' });
    expect(within(quick).getByRole('link', { name: 'Search More Cats' }).getAttribute('href')).toBe(
      '/search',
    );
    expect(within(quick).getByRole('button', { name: 'Save Cat' })).toBeTruthy();
    expect(screen.getByText('No reviews yet. Be the first to review!')).toBeTruthy();
  });

  it("shows 'Cat Not Found' for a missing cat", async () => {
    renderPage((r) =>
      r.url === '/api/cats/12'
        ? { status: 404, body: { error: 'Cat not found', code: 'not_found' } }
        : undefined,
    );
    expect(await screen.findByRole('heading', { name: 'Cat Not Found' })).toBeTruthy();
    expect(screen.getByText("The cat you're looking for doesn't exist.")).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to Search' }).getAttribute('href')).toBe('/search');
  });

  it("says 'Failed to load cat details' when loading fails", async () => {
    renderPage((r) => (r.url === '/api/cats/12' ? { status: 500 } : undefined));
    expect(await screen.findAllByText('Failed to load cat details')).not.toHaveLength(0);
  });

  it('shows the edit pencil, upload and Write Review only to whom they belong', async () => {
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Whiskers' });
    expect(screen.queryByRole('link', { name: 'Edit cat' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Write Review' })).toBeNull();
    expect(screen.queryByLabelText('Photo')).toBeNull();
    cleanup();
    useSession.setState({ user: { id: 77, username: 'visitor' }, token: 't' });
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Whiskers' });
    expect(screen.queryByRole('link', { name: 'Edit cat' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Write Review' })).toBeTruthy();
    expect(screen.getByLabelText('Photo')).toBeTruthy();
    cleanup();
    useSession.setState({ user: CREATOR, token: 't' });
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Whiskers' });
    expect(screen.getByRole('link', { name: 'Edit cat' }).getAttribute('href')).toBe('/cat/12/edit');
  });

  it('asks a visitor to log in before saving', async () => {
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Whiskers' });
    fireEvent.click(screen.getAllByRole('button', { name: 'Save Cat' })[0]!);
    expect(await screen.findByText('Please log in to save cats')).toBeTruthy();
  });

  it('toggles saved with the heart, with the toasts', async () => {
    useSession.setState({ user: { id: 77, username: 'visitor' }, token: 't' });
    const { sent } = renderPage((r) =>
      r.url === '/api/cats/12/save' ? { status: 200, body: { saved: r.method === 'POST' } } : undefined,
    );
    await screen.findByRole('heading', { level: 1, name: 'Whiskers' });
    const heart = screen.getAllByRole('button', { name: 'Save Cat' })[0]!;
    expect(heart.getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(heart);
    expect(await screen.findByText('Added to saved cats')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Remove from Saved' })).toHaveLength(2);
    fireEvent.click(screen.getAllByRole('button', { name: 'Remove from Saved' })[1]!);
    expect(await screen.findByText('Removed from saved cats')).toBeTruthy();
    expect(sent.filter((r) => r.url === '/api/cats/12/save').map((r) => r.method)).toEqual([
      'POST',
      'DELETE',
    ]);
  });

  it('knows a cat is already saved from the page itself, without reading the saved lists', async () => {
    useSession.setState({ user: { id: 77, username: 'visitor' }, token: 't' });
    const { sent } = renderPage((r) =>
      r.url === '/api/cats/12' ? { status: 200, body: { cat: { ...cat, saved: true }, bodega } } : undefined,
    );
    await screen.findByRole('heading', { level: 1, name: 'Whiskers' });
    const hearts = screen.getAllByRole('button', { name: 'Remove from Saved' });
    expect(hearts).toHaveLength(2);
    expect(hearts[0]!.getAttribute('aria-pressed')).toBe('true');
    expect(sent.filter((r) => r.url.startsWith('/api/users/'))).toEqual([]);
  });

  it('shows what a fresh load of the page says about saved', async () => {
    useSession.setState({ user: { id: 77, username: 'visitor' }, token: 't' });
    let saved = false;
    renderPage((r) =>
      r.url === '/api/cats/12' ? { status: 200, body: { cat: { ...cat, saved }, bodega } } : undefined,
    );
    await screen.findByRole('heading', { level: 1, name: 'Whiskers' });
    expect(screen.getAllByRole('button', { name: 'Save Cat' })).toHaveLength(2);
    // Saved on another device; the page fetches again when the live connection opens.
    saved = true;
    act(() => useLiveStore.setState({ connection: 'open' }));
    await vi.waitFor(() =>
      expect(screen.getAllByRole('button', { name: 'Remove from Saved' })).toHaveLength(2),
    );
  });

  it('shows nothing saved once the session has ended', async () => {
    useSession.setState({ user: { id: 77, username: 'visitor' }, token: 't' });
    renderPage((r) =>
      r.url === '/api/cats/12' ? { status: 200, body: { cat: { ...cat, saved: true }, bodega } } : undefined,
    );
    await screen.findByRole('heading', { level: 1, name: 'Whiskers' });
    expect(screen.getAllByRole('button', { name: 'Remove from Saved' })).toHaveLength(2);
    act(() => useSession.setState({ user: null, token: null }));
    expect(screen.getAllByRole('button', { name: 'Save Cat' })).toHaveLength(2);
  });

  it("says 'Failed to update saved status' when saving fails", async () => {
    useSession.setState({ user: { id: 77, username: 'visitor' }, token: 't' });
    renderPage((r) => (r.url === '/api/cats/12/save' ? { status: 500 } : undefined));
    await screen.findByRole('heading', { level: 1, name: 'Whiskers' });
    fireEvent.click(screen.getAllByRole('button', { name: 'Save Cat' })[0]!);
    expect(await screen.findByText('Failed to update saved status')).toBeTruthy();
  });
});

describe('the cat page, live', () => {
  it('adds a review, updates the rating, and follows photos without a reload', async () => {
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Whiskers' });
    live('review.posted', purrfect);
    expect(screen.getByText('Purrfect.')).toBeTruthy();
    expect(screen.getByText('bob')).toBeTruthy();
    live('review.posted', {
      id: 10,
      target_type: 'cat',
      target_id: 99,
      cat_id: 99,
      bodega_id: null,
      rating: 1,
      comment: 'Other cat',
      created_at: '2026-11-21T20:00:00.000Z',
      user: { id: 8, username: 'bob' },
    });
    expect(screen.queryByText('Other cat')).toBeNull();

    live('rating.updated', { target_type: 'cat', target_id: 12, rating: 4, review_count: 5 });
    expect(screen.getByText('(5 reviews)')).toBeTruthy();
    expect(screen.getByText('4.0')).toBeTruthy();

    live('photo.ready', {
      ...photo,
      id: 51,
      caption: 'New one',
      is_primary: false,
      target_type: 'cat',
      target_id: 12,
    });
    expect(screen.getByRole('heading', { name: 'Photos (2)' })).toBeTruthy();
    live('photo.primary', {
      id: 51,
      target_type: 'cat',
      target_id: 12,
      primary_photo: '/uploads/cats/p51_large.webp',
      primary_thumb: '/uploads/cats/p51_thumb.webp',
    });
    const hero = screen.getByRole('heading', { level: 1 }).closest('article')!;
    expect(within(hero).getByRole('img', { name: 'New one' })).toBeTruthy();
    live('photo.deleted', {
      id: 51,
      target_type: 'cat',
      target_id: 12,
      primary_photo: photo.url,
      primary_thumb: photo.thumb_url,
    });
    expect(screen.getByRole('heading', { name: 'Photos (1)' })).toBeTruthy();
    // The server promotes the oldest remaining photo when the primary one goes.
    expect(within(hero).getByRole('img', { name: 'On the counter' })).toBeTruthy();
    live('photo.deleted', {
      id: 50,
      target_type: 'cat',
      target_id: 12,
      primary_photo: null,
      primary_thumb: null,
    });
    expect(within(hero).getByRole('img', { name: 'Photo of Whiskers (no photo)' })).toBeTruthy();
    expect(screen.getByText('No photos yet.')).toBeTruthy();

    live('cat.updated', { ...cat, name: 'Sir Whiskers' });
    expect(screen.getByRole('heading', { level: 1, name: 'Sir Whiskers' })).toBeTruthy();
    live('cat.deleted', { id: 12, bodega_id: 4 });
    expect(screen.getByRole('heading', { name: 'Cat Not Found' })).toBeTruthy();
  });

  it('shows an upload as processing until the live message says it is ready', async () => {
    useSession.setState({ user: CREATOR, token: 't' });
    const processing = {
      ...photo,
      id: 60,
      caption: 'Fresh',
      is_primary: false,
      status: 'processing',
      url: null,
      thumb_url: null,
      width: null,
      height: null,
    };
    renderPage((r) =>
      r.url === '/api/photos/cats/12/photos' ? { status: 201, body: { photo: processing } } : undefined,
    );
    await screen.findByRole('heading', { level: 1, name: 'Whiskers' });
    fireEvent.change(screen.getByLabelText('Photo'), {
      target: { files: [new File([new Uint8Array(8)], 'a.jpg', { type: 'image/jpeg' })] },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Upload Photo' }));
    expect(await screen.findByText('Processing...')).toBeTruthy();
    live('photo.ready', {
      ...processing,
      status: 'ready',
      url: '/uploads/cats/p60_large.webp',
      thumb_url: '/uploads/cats/p60_thumb.webp',
      width: 1280,
      height: 720,
      target_type: 'cat',
      target_id: 12,
    });
    expect(screen.queryByText('Processing...')).toBeNull();
    expect(screen.getByRole('img', { name: 'Fresh' }).getAttribute('src')).toBe(
      '/uploads/cats/p60_thumb.webp',
    );
  });

  it('fetches again when the live connection opens, so nothing between the load and the socket is missed', async () => {
    let reviews: object[] = [];
    const { sent } = renderPage((r) =>
      r.url.startsWith('/api/reviews/cat/12')
        ? {
            status: 200,
            body: { reviews, pagination: { page: 1, per_page: 20, total: reviews.length, pages: 1 } },
          }
        : undefined,
    );
    await screen.findByRole('heading', { level: 1, name: 'Whiskers' });
    await screen.findByText('No reviews yet. Be the first to review!');
    reviews = [
      {
        id: 70,
        rating: 4,
        comment: 'Posted while connecting',
        created_at: '2026-11-21T20:00:00.000Z',
        user: { id: 5, username: 'eve' },
        cat_id: 12,
        bodega_id: null,
      },
    ];
    const before = sent.filter((r) => r.url === '/api/cats/12').length;
    act(() => useLiveStore.setState({ connection: 'open' }));
    expect(await screen.findByText('Posted while connecting')).toBeTruthy();
    expect(sent.filter((r) => r.url === '/api/cats/12').length).toBe(before + 1);
  });
  it('keeps a review heard live while the reviews were still loading', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    renderPage(async (r) => {
      if (!r.url.startsWith('/api/reviews/cat/12')) return undefined;
      await held;
      return {
        status: 200,
        body: { reviews: [], pagination: { page: 1, per_page: 20, total: 0, pages: 0 } },
      };
    });
    await screen.findByRole('heading', { level: 1, name: 'Whiskers' });
    live('review.posted', purrfect);
    // The list's first page was read before the review was posted, and arrives after it.
    await act(async () => {
      release();
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(screen.getByText('Purrfect.')).toBeTruthy();
  });

  it('keeps a rating heard live while a quiet reload was on its way', async () => {
    let calls = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    renderPage(async (r) => {
      if (r.url !== '/api/cats/12' || ++calls === 1) return undefined;
      await held;
      return { status: 200, body: { cat, bodega } };
    });
    await screen.findByRole('heading', { level: 1, name: 'Whiskers' });
    act(() => useLiveStore.setState({ connection: 'open' }));
    live('rating.updated', { target_type: 'cat', target_id: 12, rating: 4, review_count: 5 });
    expect(screen.getByText('(5 reviews)')).toBeTruthy();
    await act(async () => {
      release();
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    expect(calls).toBe(2);
    expect(screen.getByText('(5 reviews)')).toBeTruthy();
    expect(screen.getByText('4.0')).toBeTruthy();
  });
});
