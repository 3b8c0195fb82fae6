import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import toast from 'react-hot-toast/headless';
import { Toaster } from '../../client/src/components/Toaster.tsx';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../client/src/features/auth/stores/session.ts';
import { PhotoGallery } from '../../client/src/features/photos/components/PhotoGallery.tsx';
import type { Photo } from '../../client/src/lib/catalogue.ts';
import { scriptedFetch } from './helpers.ts';
import { QueryProvider } from './query.tsx';

const UPLOADER = 10;
const CREATOR = 20;
const STRANGER = 30;

function photo(id: number, extra: Partial<Photo> = {}): Photo {
  return {
    id,
    filename: `p${id}`,
    caption: `Photo ${id}`,
    is_primary: false,
    status: 'ready',
    url: `/uploads/cats/p${id}_large.webp`,
    thumb_url: `/uploads/cats/p${id}_thumb.webp`,
    width: 1280,
    height: 960,
    uploaded_by: UPLOADER,
    created_at: '2026-11-21T20:00:00.000Z',
    ...extra,
  };
}

function renderGallery(photos: Photo[], creatorId: number | null = CREATOR) {
  const onPrimary = vi.fn();
  const onDeleted = vi.fn();
  render(
    <QueryProvider>
      <PhotoGallery
        photos={photos}
        targetType="cat"
        targetId={4}
        itemName="Whiskers"
        creatorId={creatorId}
        onPrimary={onPrimary}
        onDeleted={onDeleted}
      />
      <Toaster />
    </QueryProvider>,
  );
  return { onPrimary, onDeleted };
}

/** window.confirm answering as the user would. */
function stubConfirm(answer: boolean) {
  const confirm = vi.fn((_message?: string) => answer);
  vi.stubGlobal('confirm', confirm);
  return confirm;
}

const signIn = (id: number, role: 'member' | 'moderator' = 'member') =>
  useSession.setState({ user: { id, username: `u${id}`, role }, token: 't', loading: false });
const tile = (caption: string) => screen.getByRole('img', { name: caption }).closest('li') as HTMLElement;

beforeEach(() => signIn(UPLOADER));
afterEach(() => {
  cleanup();
  act(() => toast.remove());
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('deleting a photo', () => {
  it('asks first, and sends nothing when the user says no', () => {
    const { sent } = scriptedFetch(() => ({ status: 200, body: {} }));
    const confirm = stubConfirm(false);
    const { onDeleted } = renderGallery([photo(1)]);
    fireEvent.click(within(tile('Photo 1')).getByRole('button', { name: /Delete/ }));
    expect(confirm).toHaveBeenCalledWith('Are you sure you want to delete this photo?');
    expect(sent).toHaveLength(0);
    expect(onDeleted).not.toHaveBeenCalled();
  });

  it('deletes after a yes and confirms', async () => {
    const { sent } = scriptedFetch(() => ({ status: 200, body: { message: 'deleted' } }));
    stubConfirm(true);
    const { onDeleted } = renderGallery([photo(1)]);
    fireEvent.click(within(tile('Photo 1')).getByRole('button', { name: /Delete/ }));
    expect(await screen.findByText('Photo deleted successfully')).toBeTruthy();
    expect(sent[0]).toMatchObject({ method: 'DELETE', url: '/api/photos/cats/4/photos/1' });
    expect(onDeleted).toHaveBeenCalledWith(1);
  });

  it("shows the server's refusal, else 'Failed to delete photo'", async () => {
    scriptedFetch(() => ({ status: 500 }));
    stubConfirm(true);
    const { onDeleted } = renderGallery([photo(1)]);
    fireEvent.click(within(tile('Photo 1')).getByRole('button', { name: /Delete/ }));
    expect(await screen.findByText('Failed to delete photo')).toBeTruthy();
    expect(onDeleted).not.toHaveBeenCalled();
  });
});

describe('setting the primary photo', () => {
  beforeEach(() => signIn(CREATOR));

  it('is offered on the other ready photos and confirms', async () => {
    const { sent } = scriptedFetch(() => ({ status: 200, body: { photo: photo(2, { is_primary: true }) } }));
    const { onPrimary } = renderGallery([photo(1, { is_primary: true }), photo(2)]);
    expect(within(tile('Photo 1')).queryByRole('button', { name: 'Set as primary' })).toBeNull();
    expect(within(tile('Photo 1')).getByText('Primary')).toBeTruthy();
    fireEvent.click(within(tile('Photo 2')).getByRole('button', { name: 'Set as primary' }));
    expect(await screen.findByText('Primary photo updated')).toBeTruthy();
    expect(sent[0]).toMatchObject({ method: 'PUT', url: '/api/photos/cats/4/photos/2/primary' });
    expect(onPrimary).toHaveBeenCalledWith(2);
  });

  it("falls back to 'Failed to update primary photo'", async () => {
    scriptedFetch(() => ({ status: 500 }));
    renderGallery([photo(1, { is_primary: true }), photo(2)]);
    fireEvent.click(within(tile('Photo 2')).getByRole('button', { name: 'Set as primary' }));
    expect(await screen.findByText('Failed to update primary photo')).toBeTruthy();
  });
});

describe('who sees the photo controls', () => {
  const controls = () => screen.queryAllByRole('button', { name: /Delete|Set as primary/ });

  const names = () => controls().map((b) => b.textContent);

  it('the item creator sees both; the uploader only Delete, since choosing the primary photo is not theirs', () => {
    signIn(CREATOR);
    renderGallery([photo(1, { is_primary: true }), photo(2)]);
    expect(names()).toEqual(['Delete', 'Set as primary', 'Delete']);
    cleanup();
    signIn(UPLOADER);
    renderGallery([photo(1, { is_primary: true }), photo(2)]);
    expect(names()).toEqual(['Delete', 'Delete']);
  });

  it('a moderator sees Set as primary only, also on an item with no creator', () => {
    signIn(STRANGER, 'moderator');
    renderGallery([photo(1, { is_primary: true }), photo(2)]);
    expect(names()).toEqual(['Set as primary']);
    cleanup();
    renderGallery([photo(1, { is_primary: true }), photo(2)], null);
    expect(names()).toEqual(['Set as primary']);
  });

  it('another user and a visitor do not', () => {
    signIn(STRANGER);
    renderGallery([photo(1), photo(2)]);
    expect(controls()).toHaveLength(0);
    cleanup();
    useSession.setState({ user: null, token: null });
    renderGallery([photo(1), photo(2)]);
    expect(controls()).toHaveLength(0);
  });
});

describe('the thumbnails', () => {
  it('use the small variant with the size reserved, and show a processing state until ready', () => {
    renderGallery([
      photo(1),
      photo(2, { status: 'processing', url: null, thumb_url: null, width: null, height: null }),
    ]);
    const img = screen.getByRole('img', { name: 'Photo 1' }) as HTMLImageElement;
    expect(img.getAttribute('src')).toBe('/uploads/cats/p1_thumb.webp');
    expect(img.getAttribute('width')).toBe('1280');
    expect(img.getAttribute('height')).toBe('960');
    expect(screen.getByText('Processing...')).toBeTruthy();
  });

  it('swap to the placeholder when an image fails to load', () => {
    renderGallery([photo(1)]);
    fireEvent.error(screen.getByRole('img', { name: 'Photo 1' }));
    expect(screen.getByRole('img', { name: 'Photo 1 (no photo)' })).toBeTruthy();
  });
});

describe('a photo moderation hid', () => {
  it('says so on its tile (moderators are the ones who still get it)', () => {
    renderGallery([photo(1), photo(2, { hidden: true })]);
    expect(within(tile('Photo 2')).getByText('Hidden by moderators')).toBeTruthy();
    expect(within(tile('Photo 1')).queryByText('Hidden by moderators')).toBeNull();
  });
});
