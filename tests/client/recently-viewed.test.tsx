import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import toast from 'react-hot-toast/headless';
import { Toaster } from '../../client/src/components/Toaster.tsx';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../client/src/features/auth/stores/session.ts';
import RecentlyViewedPage from '../../client/src/features/recently-viewed/routes/RecentlyViewedPage.tsx';
import type { ViewedItem } from '../../client/src/features/recently-viewed/types.ts';
import { scriptedFetch } from './helpers.ts';

const NOW = new Date('2026-11-21T18:00:00.000Z');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

function viewed(id: number, ago: number, extra: Partial<ViewedItem> = {}): ViewedItem {
  return {
    type: 'cat',
    id,
    name: `Cat ${id}`,
    bodega_name: `Deli ${id}`,
    address: `${id} Broadway`,
    description: `Cat number ${id}`,
    rating: 4.6,
    review_count: 2,
    primary_photo: null,
    primary_thumb: null,
    viewed_at: new Date(NOW.getTime() - ago).toISOString(),
    ...extra,
  };
}

function renderPage() {
  render(
    <MemoryRouter>
      <RecentlyViewedPage />
      <Toaster />
    </MemoryRouter>,
  );
}

function timeOf(name: string): string {
  const card = screen.getByRole('heading', { name }).closest('article')!;
  return card.querySelector('time')!.textContent!;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  useSession.setState({ user: { id: 1, username: 'alice' }, token: 't', loading: false });
});

afterEach(() => {
  cleanup();
  act(() => toast.remove());
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('Recently Viewed', () => {
  it('shows relative times with the 1 hour, 24 hours and 7 days thresholds', async () => {
    const sevenDays = viewed(8, 7 * DAY);
    scriptedFetch(() => ({
      status: 200,
      body: {
        recently_viewed: [
          viewed(1, 0),
          viewed(2, 59 * MINUTE),
          viewed(3, HOUR),
          viewed(4, 23 * HOUR + 59 * MINUTE),
          viewed(5, DAY),
          viewed(6, 2 * DAY + 5 * HOUR),
          viewed(7, 7 * DAY - MINUTE),
          sevenDays,
        ],
        pagination: { page: 1, per_page: 50, total: 8, pages: 1 },
      },
    }));
    renderPage();
    await screen.findByRole('heading', { name: 'Cat 1' });
    expect(timeOf('Cat 1')).toBe('Just now');
    expect(timeOf('Cat 2')).toBe('Just now');
    expect(timeOf('Cat 3')).toBe('1 hour ago');
    expect(timeOf('Cat 4')).toBe('23 hours ago');
    expect(timeOf('Cat 5')).toBe('1 day ago');
    expect(timeOf('Cat 6')).toBe('2 days ago');
    expect(timeOf('Cat 7')).toBe('6 days ago');
    expect(timeOf('Cat 8')).toBe(new Date(sevenDays.viewed_at).toLocaleDateString());
  });

  it('shows the type badge, bodega name for cats, address, description, stars and review count', async () => {
    scriptedFetch(() => ({
      status: 200,
      body: {
        recently_viewed: [
          viewed(1, HOUR * 3),
          viewed(2, DAY, { type: 'bodega', name: 'Sunny Deli', bodega_name: undefined, review_count: 1 }),
        ],
        pagination: { page: 1, per_page: 50, total: 2, pages: 1 },
      },
    }));
    renderPage();
    const cat = (await screen.findByRole('heading', { name: 'Cat 1' })).closest('article')!;
    expect(within(cat as HTMLElement).getByText('Cat')).toBeTruthy();
    expect(within(cat as HTMLElement).getByText('Deli 1')).toBeTruthy();
    expect(within(cat as HTMLElement).getByText('1 Broadway')).toBeTruthy();
    expect(within(cat as HTMLElement).getByText('Cat number 1')).toBeTruthy();
    expect(within(cat as HTMLElement).getByRole('img', { name: 'Rated 4.6 out of 5' })).toBeTruthy();
    expect(within(cat as HTMLElement).getByText('2 reviews')).toBeTruthy();
    expect(cat.querySelector('a')!.getAttribute('href')).toBe('/cat/1');

    const bodega = screen.getByRole('heading', { name: 'Sunny Deli' }).closest('article')!;
    expect(within(bodega as HTMLElement).getByText('Bodega')).toBeTruthy();
    expect(within(bodega as HTMLElement).getByText('1 review')).toBeTruthy();
    expect(bodega.querySelector('a')!.getAttribute('href')).toBe('/bodega/2');
  });

  it("shows each item's thumb, and the placeholder for an item without a photo", async () => {
    scriptedFetch(() => ({
      status: 200,
      body: {
        recently_viewed: [
          viewed(1, HOUR, {
            primary_photo: '/uploads/cats/c1_large.webp',
            primary_thumb: '/uploads/cats/c1_thumb.webp',
          }),
          viewed(2, DAY),
        ],
        pagination: { page: 1, per_page: 50, total: 2, pages: 1 },
      },
    }));
    renderPage();
    await screen.findByRole('heading', { name: 'Cat 1' });
    expect(screen.getByRole('img', { name: 'Cat 1' }).getAttribute('src')).toBe(
      '/uploads/cats/c1_thumb.webp',
    );
    expect(screen.getByRole('img', { name: 'Cat 2 (no photo)' })).toBeTruthy();
  });

  it('Clear History empties the list and confirms', async () => {
    const { sent } = scriptedFetch((request) =>
      request.method === 'DELETE'
        ? { status: 200, body: { message: 'ok' } }
        : {
            status: 200,
            body: {
              recently_viewed: [viewed(1, 0)],
              pagination: { page: 1, per_page: 50, total: 1, pages: 1 },
            },
          },
    );
    renderPage();
    await screen.findByRole('heading', { name: 'Cat 1' });
    fireEvent.click(screen.getByRole('button', { name: 'Clear History' }));
    expect(await screen.findByText('Recently viewed items cleared')).toBeTruthy();
    expect(sent.at(-1)).toMatchObject({ method: 'DELETE', url: '/api/users/clear-recently-viewed' });
    expect(screen.getByText('No recently viewed items')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Cat 1' })).toBeNull();
  });

  it('keeps the list and says so when clearing fails', async () => {
    scriptedFetch((request) =>
      request.method === 'DELETE'
        ? { status: 500 }
        : {
            status: 200,
            body: {
              recently_viewed: [viewed(1, 0)],
              pagination: { page: 1, per_page: 50, total: 1, pages: 1 },
            },
          },
    );
    renderPage();
    await screen.findByRole('heading', { name: 'Cat 1' });
    fireEvent.click(screen.getByRole('button', { name: 'Clear History' }));
    expect(await screen.findByText('Failed to clear recently viewed items')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Cat 1' })).toBeTruthy();
  });

  it('shows the empty state, and the load failure toast', async () => {
    scriptedFetch(() => ({ status: 500 }));
    renderPage();
    expect(await screen.findByText('Failed to load recently viewed items')).toBeTruthy();
    expect(screen.getByText('No recently viewed items')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Clear History' })).toBeNull();
  });
});
