// The Share button of the cat and bodega pages: the device's share sheet where there is one, else
// the link copied with a toast.
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../client/src/features/auth/stores/session.ts';
import BodegaDetailPage from '../../client/src/features/bodegas/routes/BodegaDetailPage.tsx';
import CatDetailPage from '../../client/src/features/cats/routes/CatDetailPage.tsx';
import { detailOf, SUNNY_DELI, WHISKERS } from './fixtures.ts';
import { cleanUpScreen, fakeLiveStream, renderItemPage } from './screens.tsx';

const cat = detailOf(WHISKERS, 2);
const bodega = SUNNY_DELI;

/** Gives the browser a share sheet (or takes it away) for one test. */
function setShare(share: ((data: ShareData) => Promise<void>) | undefined) {
  Object.defineProperty(navigator, 'share', { value: share, configurable: true, writable: true });
}

let writeText: ReturnType<typeof vi.fn<(text: string) => Promise<void>>>;

beforeEach(() => {
  fakeLiveStream('connecting');
  useSession.setState({ user: null, token: null, loading: false });
  writeText = vi.fn(async (_text: string) => {});
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
});
afterEach(() => {
  setShare(undefined);
  cleanUpScreen();
});

async function shareButton(name: string) {
  return screen.findByRole('button', { name });
}

describe('the Share button', () => {
  it('opens the share sheet with the cat’s name and share link where the browser has one', async () => {
    const share = vi.fn(async (_data: ShareData) => {});
    setShare(share);
    renderItemPage('cat', WHISKERS.id, <CatDetailPage />, { cat, bodega });
    const button = await shareButton('Share Cat');
    await act(async () => fireEvent.click(button));
    expect(share).toHaveBeenCalledWith({
      title: 'Whiskers',
      url: `${window.location.origin}/c/${WHISKERS.id}`,
    });
    expect(writeText).not.toHaveBeenCalled();
    expect(screen.queryByText('Link copied')).toBeNull();
  });

  it('copies the link and says so where there is no share sheet', async () => {
    setShare(undefined);
    renderItemPage('bodega', SUNNY_DELI.id, <BodegaDetailPage />, {
      bodega: detailOf(SUNNY_DELI, 1),
      cats: [],
    });
    const button = await shareButton('Share Bodega');
    expect(button.getAttribute('type')).toBe('button');
    await act(async () => fireEvent.click(button));
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/b/${SUNNY_DELI.id}`);
    expect(await screen.findByText('Link copied')).toBeTruthy();
  });

  it('says nothing when the person closes the share sheet, and copies when sharing is refused', async () => {
    const share = vi.fn(async (_data: ShareData) => {
      throw new DOMException('closed', 'AbortError');
    });
    setShare(share);
    renderItemPage('cat', WHISKERS.id, <CatDetailPage />, { cat, bodega });
    const button = await shareButton('Share Cat');
    await act(async () => fireEvent.click(button));
    expect(share).toHaveBeenCalledTimes(1);
    expect(writeText).not.toHaveBeenCalled();

    share.mockImplementation(async () => {
      throw new DOMException('no', 'NotAllowedError');
    });
    await act(async () => fireEvent.click(button));
    await waitFor(() => expect(writeText).toHaveBeenCalledTimes(1));
    expect(await screen.findByText('Link copied')).toBeTruthy();
  });

  it('shows the link when it can be neither shared nor copied', async () => {
    writeText.mockRejectedValue(new DOMException('denied', 'NotAllowedError'));
    renderItemPage('cat', WHISKERS.id, <CatDetailPage />, { cat, bodega });
    await act(async () => fireEvent.click(await shareButton('Share Cat')));
    expect(
      await screen.findByText(`Could not copy the link: ${window.location.origin}/c/${WHISKERS.id}`),
    ).toBeTruthy();
  });
});
